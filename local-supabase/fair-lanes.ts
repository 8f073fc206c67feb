// Fair turns at a shared resource (the database's connections, the image renderer's threads). Each
// caller has a lane: it holds at most `perLane` turns at once and its other requests wait in its own
// queue; a free turn goes to the waiting lanes in round-robin order, a lane joining the round behind
// the others only once it may run again. So one caller's backlog delays another caller by at most one
// turn, and a caller's queue past `maxQueued` is refused (the endpoint answers 429).

export interface FairLanesOptions {
  /** Turns held at once over all lanes (the connections, the render threads). */
  slots: number;
  /** Turns one lane may hold at once. */
  perLane: (lane: string) => number;
  /** Requests one lane may keep waiting; past it, run() throws LaneQueueFull. */
  maxQueued: (lane: string) => number;
}

/** A caller's queue is full: the request is refused without waiting. */
export class LaneQueueFull extends Error {
  constructor(
    readonly lane: string,
    readonly queued: number,
  ) {
    super(`${queued} requests of this caller are already waiting`);
  }
}

interface Lane {
  running: number;
  waiting: (() => void)[];
  /** In the round (`turns`): it has a request waiting and may run it. */
  inRound: boolean;
}

export class FairLanes {
  private readonly lanes = new Map<string, Lane>();
  /** Lanes that wait for a free turn, in the order they get it. */
  private readonly turns: string[] = [];
  private running = 0;

  constructor(readonly options: FairLanesOptions) {}

  /** Runs fn in one of `lane`'s turns: at once when free, else after its turn comes round. */
  async run<T>(lane: string, fn: () => Promise<T>): Promise<T> {
    let l = this.lanes.get(lane);
    if (!l) this.lanes.set(lane, (l = { running: 0, waiting: [], inRound: false }));
    const queued = l.waiting.length;
    if (queued >= this.options.maxQueued(lane)) {
      this.forgetIfIdle(lane, l);
      throw new LaneQueueFull(lane, queued);
    }
    await new Promise<void>((start) => {
      l.waiting.push(start);
      this.join(lane, l);
      this.dispatch();
    });
    try {
      return await fn();
    } finally {
      l.running--;
      this.running--;
      this.join(lane, l);
      this.forgetIfIdle(lane, l);
      this.dispatch();
    }
  }

  /** Turns held and requests waiting, per lane (diagnostics and tests). */
  snapshot(): { lane: string; running: number; waiting: number }[] {
    return [...this.lanes].map(([lane, l]) => ({ lane, running: l.running, waiting: l.waiting.length }));
  }

  private join(lane: string, l: Lane): void {
    if (!l.inRound && l.waiting.length > 0 && l.running < this.options.perLane(lane)) {
      l.inRound = true;
      this.turns.push(lane);
    }
  }

  private dispatch(): void {
    while (this.running < this.options.slots && this.turns.length > 0) {
      const lane = this.turns.shift()!;
      const l = this.lanes.get(lane)!;
      l.inRound = false;
      const start = l.waiting.shift()!;
      l.running++;
      this.running++;
      this.join(lane, l); // still more waiting and under its limit: back at the end of the round
      start();
    }
  }

  private forgetIfIdle(lane: string, l: Lane): void {
    if (l.running === 0 && l.waiting.length === 0) this.lanes.delete(lane);
  }
}
