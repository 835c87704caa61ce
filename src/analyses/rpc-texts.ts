import { createHash } from "node:crypto";

/** Total chars of distinct instructions texts one message log keeps (8 MiB); beyond it older texts keep their length and hash only. */
export const SENT_TEXTS_CAP_CHARS = 8 * 1024 * 1024;

/** One distinct instructions text a message log sent, held once however many answers carried it. */
export interface SentEntry {
  chars: number;
  /** sha256 of the text's UTF-16 code units as UTF-8 (the dedupe key with `chars`). */
  sha256: string;
  /** The text; null when it was dropped to stay under the cap (the verbatim check then says unknown). */
  text: string | null;
}

/**
 * The distinct texts of one log, by content: a lab log appending the same text every run holds it once.
 * Kept newest first up to `capChars` total (the newest is always kept); older ones past the cap keep their length and hash.
 */
export class SentStore {
  private readonly byKey = new Map<string, SentEntry>();
  private kept = 0;
  /** Distinct texts dropped to stay under the cap. */
  dropped = 0;

  constructor(readonly capChars: number = SENT_TEXTS_CAP_CHARS) {}

  add(text: string): SentEntry {
    const sha256 = createHash("sha256").update(text).digest("hex");
    const key = `${text.length}:${sha256}`;
    let e = this.byKey.get(key);
    if (e) {
      this.byKey.delete(key);
      if (e.text === null) {
        e.text = text;
        this.kept += text.length;
        this.dropped -= 1;
      }
    } else {
      e = { chars: text.length, sha256, text };
      this.kept += text.length;
    }
    this.byKey.set(key, e);
    // Oldest first out; the newest (just set) stays even when it alone passes the cap.
    for (const [k, old] of this.byKey) {
      if (this.kept <= this.capChars || k === key) break;
      if (old.text === null) continue;
      this.kept -= old.chars;
      old.text = null;
      this.dropped += 1;
    }
    return e;
  }

  /** Distinct texts seen and the chars now held. */
  get stats(): { distinct: number; keptChars: number; dropped: number } {
    return { distinct: this.byKey.size, keptChars: this.kept, dropped: this.dropped };
  }
}
