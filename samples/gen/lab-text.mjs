// The instructions text of the seed write-up's lab server (000_93bd002b68ef46c8.txt, lab.js
// `instructions(begin, end, n)`): `BEGIN codeword: <W>. ` + filler sentences about a parts workshop
// with a `[at N] ` marker (N = the marker's own offset) once the text reaches each multiple of 250,
// cut to n - tail chars, then ` END codeword: <W>.`; exactly n JS chars.
//
// The write-up's own filler is not published, so the sentences are ours; a fixed xorshift seed per
// language orders them. The seeds were picked so that, with 12-char codewords (7 letters, "-",
// 4 digits), the texts land on the write-up's figures:
//   English, 1,000 chars                -> last marker [at 763]
//   English, cut to 2,048 (any length)  -> last marker [at 2009]
//   English, 20,000 chars               -> last marker [at 19808]
//   Japanese, 3,000 chars               -> 7,956 UTF-8 bytes; first 2,048 chars = 5,452 bytes, last marker [at 2026]
// Plain Node ESM, no dependencies, deterministic.

const POOLS = {
  en: [
    "The lab server tracks spare parts for a small hardware workshop.",
    "Use lookup_part when the user names a part number or asks about stock.",
    "Use list_bins to see which storage bins exist and what each one holds.",
    "Use lab_ping only to check that the server is reachable.",
    "Part numbers look like PN-1234 and are case sensitive.",
    "Stock counts are updated every evening after the workshop closes.",
    "Never guess a stock count; look it up.",
    "If a part is missing, say so plainly and suggest the nearest bin.",
    "Bins are numbered from A1 to F9.",
    "Quote the part number exactly as the tool returned it.",
  ],
  ja: [
    "labサーバーは小さな工房の予備部品を管理します。",
    "利用者が部品番号を挙げたり在庫を尋ねたりしたら lookup_part を使ってください。",
    "どの保管棚があり何が入っているかは list_bins で確かめます。",
    "lab_ping はサーバーに届くかを確かめるときだけ使います。",
    "部品番号は英字と数字の組み合わせで、大文字と小文字を区別します。",
    "在庫数は毎晩、工房が閉まったあとに更新されます。",
    "在庫数を推測してはいけません。必ず調べてください。",
    "部品が見つからなければ、はっきりそう伝え、近くの棚を勧めてください。",
    "棚には番号が振られ、上の段から順に並んでいます。",
    "部品番号はツールが返したとおりに正確に引用してください。",
  ],
  // Japanese with characters outside the BMP (𠮷 U+20BB7, 𩸽 U+29E3D: two UTF-16 units each), so that
  // chars, code points and bytes all differ, and the 2,048-unit cut can split a pair.
  "ja-astral": [
    "在庫サーバーは𠮷田工房の棚と部品を管理します。",
    "品目を尋ねられたら find_item を使ってください。",
    "𩸽の干物は冷凍棚、𠮷野の乾物は常温棚にあります。",
    "棚の番号は推測せず、必ず調べてください。",
    "𠮷の字は土の𠮷で、士の吉とは別の品目です。",
    "在庫が無ければ、はっきりそう伝えてください。",
  ],
};
const SEEDS = { en: 56048, ja: 2107321, "ja-astral": 38 };
const JOIN = { en: " ", ja: "", "ja-astral": "" };

function xorshift(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4294967296;
  };
}

/** The lab text: exactly `n` chars, codewords at both ends, `[at N]` markers about every 250 chars. */
export function labInstructions(begin, end, n, lang = "en") {
  const pool = POOLS[lang];
  if (!pool) throw new Error(`unknown language ${lang}`);
  const next = xorshift(SEEDS[lang]);
  const tail = ` END codeword: ${end}.`;
  let s = `BEGIN codeword: ${begin}. ${pool[0]}${JOIN[lang]}`;
  let mark = 250;
  while (s.length < n - tail.length) {
    if (s.length >= mark) {
      s += `[at ${s.length}] `;
      mark += 250;
    }
    s += pool[1 + Math.floor(next() * (pool.length - 1))] + JOIN[lang];
  }
  return s.slice(0, n - tail.length) + tail;
}

/** Claude Code's cut (FORMATS.md 5.1): the first `limit` UTF-16 units, then the 13-char marker. */
export function truncateLikeClaudeCode(text, limit = 2048) {
  return text.length > limit ? text.slice(0, limit) + "… [truncated]" : text;
}
