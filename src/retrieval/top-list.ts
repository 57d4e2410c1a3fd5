/** The `limit` best (score, id) pairs seen, kept sorted: best score first, ties by id. */
export class TopList {
  private readonly scores: number[] = [];
  private readonly keys: string[] = [];
  constructor(private readonly limit: number) {}

  offer(score: number, id: string) {
    const size = this.scores.length;
    if (size === this.limit && !this.before(score, id, size - 1)) return;
    let at = size === this.limit ? size - 1 : size;
    while (at > 0 && this.before(score, id, at - 1)) {
      this.scores[at] = this.scores[at - 1]!;
      this.keys[at] = this.keys[at - 1]!;
      at -= 1;
    }
    this.scores[at] = score;
    this.keys[at] = id;
  }

  ids(): string[] {
    return [...this.keys];
  }

  entries(): Array<{ id: string; score: number }> {
    return this.keys.map((id, index) => ({ id, score: this.scores[index]! }));
  }

  private before(score: number, id: string, index: number): boolean {
    const other = this.scores[index]!;
    return score > other || (score === other && id < this.keys[index]!);
  }
}
