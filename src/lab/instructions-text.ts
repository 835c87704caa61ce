/**
 * The lab's instructions text (seed 000, FORMATS.md 2.6): `BEGIN codeword: <W>. `, filler sentences
 * about a parts workshop with a `[at N] ` marker (N = the marker's own offset) once the text reaches
 * each next multiple of 250, cut to `chars - tail`, then ` END codeword: <W>.` — exactly `chars` JS
 * chars. Pure and deterministic: the same (chars, lang, era) always gives the same text.
 *
 * Every codeword is a 7-letter word, "-" and 4 digits, so marker offsets depend only on the length
 * and the language. The sentence order seeds (`ORDER_SEED`) were found by a brute-force search so
 * that this text lands on the figures seed 000 reported for its own lab text (test/lab pins them):
 *   English: 1,000 chars → last marker [at 763]; first 2,048 chars → [at 2009]; 20,000 chars → [at 19808]
 *   Japanese: 3,000 chars = 7,956 UTF-8 bytes; first 2,048 chars = 5,452 bytes, last marker [at 2026]
 */
export type LabLang = "en" | "ja";

/** Which response carries the text: `initialize` (2025-11-25 and before) or `server/discover` (2026-07-28). */
export type LabEra = "legacy" | "modern";

export const MARKER_EVERY = 250;

const OPENING: Record<LabLang, string> = {
  en: "The lab server tracks spare parts for a small hardware workshop.",
  ja: "このサーバーは町の小さな工房で使う予備部品の在庫を記録しています。",
};

const FILLER: Record<LabLang, readonly string[]> = {
  en: [
    "Use lookup_part when the user names a part number or asks how many are in stock.",
    "Use list_bins to see which storage bins exist and what each of them holds.",
    "Call lab_ping only to check that the server answers.",
    "Part numbers have the form PN- followed by four digits.",
    "Counts are refreshed every evening when the workshop closes.",
    "Do not guess a count; look it up.",
    "When a part is missing, say so and name the nearest bin instead.",
    "Bins run from A1 to F9, left to right and top to bottom.",
    "Quote part numbers exactly as the tool returns them.",
    "Fasteners, springs and washers are sold by weight, not by the piece.",
    "Ask before reserving more than ten units of any part.",
    "Prices are in euros and exclude tax.",
  ],
  ja: [
    "部品番号や在庫数を聞かれたらlookup_partを呼んでください。",
    "保管棚の一覧と中身はlist_binsで調べられます。",
    "lab_pingはサーバーの応答を確かめるためだけに使います。",
    "部品番号はPN-に四桁の数字が続く形です。",
    "在庫数は毎晩、工房を閉めるときに更新されます。",
    "数を推測せず、必ず調べてから答えてください。",
    "部品が無いときはそう伝え、いちばん近い棚を案内してください。",
    "棚はA1からF9まで、左から右、上から下へ並んでいます。",
    "部品番号はツールが返したとおりに引用してください。",
    "ねじ、ばね、座金は個数ではなく重さで売ります。",
    "同じ部品を十個より多く取り置くときは先に確認してください。",
    "価格はユーロ表示で、税は含みません。",
  ],
};

/** English sentences are separated by a space; Japanese ones follow each other directly. */
const JOINER: Record<LabLang, string> = { en: " ", ja: "" };

/** Sentence order per language; see the file comment. */
export const ORDER_SEED: Record<LabLang, number> = { en: 274401, ja: 2060247 };

/** Codeword words per era, all 7 letters: an answer's word alone tells which response Claude got. */
const WORDS: Record<LabEra, readonly string[]> = {
  legacy: [
    "PELICAN",
    "BITTERN",
    "KESTREL",
    "BUZZARD",
    "HARRIER",
    "GOSHAWK",
    "MALLARD",
    "LAPWING",
    "PINTAIL",
    "GADWALL",
    "OSTRICH",
    "PENGUIN",
  ],
  modern: [
    "WAXWING",
    "TANAGER",
    "SPARROW",
    "WARBLER",
    "BUNTING",
    "REDWING",
    "KINGLET",
    "SKYLARK",
    "REDPOLL",
    "CATBIRD",
    "FLICKER",
    "BLUETIT",
  ],
};

export interface Codewords {
  begin: string;
  end: string;
}

/**
 * The codeword pair of one configuration: a pure function of (length, language, era, salt). The
 * salt (a tool name) gives each tool description its own pair; the server text has none.
 */
export function codewordsFor(chars: number, lang: LabLang, era: LabEra, salt = ""): Codewords {
  const words = WORDS[era];
  const key = `${chars}|${lang}|${era}${salt ? `|${salt}` : ""}`;
  const h1 = fnv1a(`${key}|begin`);
  const h2 = fnv1a(`${key}|end`);
  const i = h1 % words.length;
  const j = (i + 1 + (h2 % (words.length - 1))) % words.length;
  return { begin: `${words[i]}-${1000 + ((h1 >>> 8) % 9000)}`, end: `${words[j]}-${1000 + ((h2 >>> 8) % 9000)}` };
}

export const headOf = (begin: string) => `BEGIN codeword: ${begin}. `;
export const tailOf = (end: string) => ` END codeword: ${end}.`;

/** The shortest text that still carries both codewords (58 chars with the 12-char codewords). */
export function minChars(cw: Codewords): number {
  return headOf(cw.begin).length + tailOf(cw.end).length;
}

/** The lab text of exactly `chars` chars (`chars` ≥ minChars). */
export function instructionsText(chars: number, lang: LabLang, cw: Codewords, seed = ORDER_SEED[lang]): string {
  const tail = tailOf(cw.end);
  const stop = chars - tail.length;
  const next = mulberry32(seed);
  const pool = FILLER[lang];
  const parts: string[] = [headOf(cw.begin), OPENING[lang], JOINER[lang]];
  let len = parts[0]!.length + OPENING[lang].length + JOINER[lang].length;
  let mark = MARKER_EVERY;
  while (len < stop) {
    if (len >= mark) {
      const m = `[at ${len}] `;
      parts.push(m);
      len += m.length;
      mark += MARKER_EVERY;
    }
    const s = pool[Math.floor(next() * pool.length)]! + JOINER[lang];
    parts.push(s);
    len += s.length;
  }
  return parts.join("").slice(0, stop) + tail;
}

/** Small, fast, well-mixed 32-bit PRNG; floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over UTF-16 units: a stable 32-bit hash for deriving names from configurations. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
