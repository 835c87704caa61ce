/**
 * The page's only stylesheet. Tables sit in their own horizontally scrolling box so a wide one never
 * widens the page, with a shadow at the edge that has more to scroll to; numbers are right-aligned and
 * never break; ids and paths break at their separators (html.ts adds the <wbr>), so most tables fit
 * 1,200 px and the rest scroll in their box at 720 px.
 */
export const HTML_STYLE = `
:root{color-scheme:light;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1f2328;background:#fff}
body{margin:0;padding:24px 16px}
main{max-width:1200px;margin:0 auto}
h1{font-size:1.5rem;margin:0 0 .75rem}
h2{font-size:1.25rem;margin:2rem 0 .5rem;padding-bottom:.25rem;border-bottom:1px solid #d0d7de}
h3,h4{font-size:1rem;margin:1.25rem 0 .4rem}
h1,h2,h3,h4,li,.note{overflow-wrap:anywhere}
ul.summary{padding-left:1.25rem;margin:.5rem 0 1rem}
.scroll{width:fit-content;max-width:100%;overflow-x:auto;border:1px solid #d0d7de;border-radius:6px;
 background:linear-gradient(to right,#fff 30%,#fff0) left/32px 100% no-repeat local,linear-gradient(to left,#fff 30%,#fff0) right/32px 100% no-repeat local,
 radial-gradient(farthest-side at 0 50%,#0003,#0000) left/10px 100% no-repeat scroll,radial-gradient(farthest-side at 100% 50%,#0003,#0000) right/10px 100% no-repeat scroll}
.scroll:focus{outline:2px solid #0969da;outline-offset:1px}
table{border-collapse:collapse;font-size:13px;line-height:1.35;font-variant-numeric:tabular-nums}
th,td{padding:4px 7px;text-align:left;vertical-align:top;border-bottom:1px solid #eaeef2}
thead th{background:#f6f8fa;font-weight:600;border-bottom:1px solid #d0d7de}
tbody tr:last-child td{border-bottom:0}
tfoot td{font-weight:600;border-top:2px solid #d0d7de;border-bottom:0}
th.num,td.num{text-align:right}
td.num,td.short{white-space:nowrap}
td.text{overflow-wrap:break-word}
td.prose{min-width:16ch}
.note{color:#59636e;font-size:13px;margin:.4rem 0}
.none{color:#59636e;font-style:italic;margin:.25rem 0}
figure.chart{margin:1rem 0;max-width:100%;overflow-x:auto}
figure.chart svg{display:block;max-width:100%;height:auto}
`.trim();
