/**
 * Progress on stderr: one line redrawn in place on a terminal, a line per phase (and per quarter
 * of it) otherwise, so a log or a script sees something too. stdout stays for results.
 */
const WIDTH = 24;

export class Progress {
  private phase = '';
  private quarter = -1;
  private lastDraw = 0;
  private readonly stream: NodeJS.WriteStream;
  private readonly quiet: boolean;

  constructor(stream: NodeJS.WriteStream = process.stderr, quiet = false) {
    this.stream = stream;
    this.quiet = quiet;
  }

  update(phase: string, done: number, total: number | null): void {
    if (this.quiet) return;
    const share = total ? Math.min(1, done / Math.max(total, 1)) : null;
    const counts = total ? `${done}/${total}` : done ? `${done}` : '';
    if (this.stream.isTTY) {
      if (Date.now() - this.lastDraw < 100 && phase === this.phase) return;
      this.lastDraw = Date.now();
      const bar = share === null ? '' : `[${'#'.repeat(Math.round(share * WIDTH)).padEnd(WIDTH, '.')}] `;
      this.stream.write(`\r\x1b[2K${bar}${phase} ${counts}`);
    } else {
      const quarter = share === null ? 0 : Math.floor(share * 4);
      if (phase === this.phase && quarter === this.quarter) return;
      this.stream.write(`${phase} ${counts}\n`);
      this.quarter = quarter;
    }
    this.phase = phase;
  }

  done(): void {
    if (!this.quiet && this.stream.isTTY && this.phase) this.stream.write('\r\x1b[2K');
    this.phase = '';
  }
}
