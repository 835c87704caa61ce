/** Where a record came from: the file as given (or "-") and its 1-based physical line. */
export interface Pos {
  file: string;
  line: number;
}
