// FairLanes: a caller's backlog waits in its own lane, other callers get their turn after at most one
// of its turns, a lane holds at most its share, and a full lane refuses at once.
import { describe, expect, it } from 'vitest';
import { FairLanes, LaneQueueFull } from './fair-lanes.ts';

/** A job the test finishes by hand; `log` records when each one starts. */
function jobs(log: string[]) {
  const finishers = new Map<string, () => void>();
  return {
    job: (name: string) => () =>
      new Promise<string>((resolve) => {
        log.push(name);
        finishers.set(name, () => resolve(name));
      }),
    finish: async (name: string) => {
      finishers.get(name)!();
      await new Promise((r) => setTimeout(r, 0));
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('FairLanes', () => {
  it('serves the lanes in turn: one caller’s backlog delays another by one turn at most', async () => {
    const lanes = new FairLanes({ slots: 1, perLane: () => 1, maxQueued: () => 50 });
    const started: string[] = [];
    const { job, finish } = jobs(started);
    const a = ['a1', 'a2', 'a3'].map((n) => lanes.run('attacker', job(n)));
    await settle();
    const v = lanes.run('victim', job('v1'));
    await settle();
    expect(started).toEqual(['a1']);
    await finish('a1');
    expect(started).toEqual(['a1', 'v1']);
    await finish('v1');
    await finish('a2');
    await finish('a3');
    expect(await Promise.all([...a, v])).toEqual(['a1', 'a2', 'a3', 'v1']);
    expect(started).toEqual(['a1', 'v1', 'a2', 'a3']);
    expect(lanes.snapshot()).toEqual([]);
  });

  it('a lane holds at most its share of the slots; the others stay free for other callers', async () => {
    const lanes = new FairLanes({ slots: 10, perLane: (lane) => (lane === 'service' ? 5 : 2), maxQueued: () => 50 });
    const started: string[] = [];
    const { job, finish } = jobs(started);
    for (let i = 1; i <= 6; i++) void lanes.run('student', job(`s${i}`));
    void lanes.run('other', job('o1'));
    for (let i = 1; i <= 6; i++) void lanes.run('service', job(`f${i}`));
    await settle();
    expect(started).toEqual(['s1', 's2', 'o1', 'f1', 'f2', 'f3', 'f4', 'f5']);
    expect(lanes.snapshot()).toEqual([
      { lane: 'student', running: 2, waiting: 4 },
      { lane: 'other', running: 1, waiting: 0 },
      { lane: 'service', running: 5, waiting: 1 },
    ]);
    await finish('s1');
    expect(started.at(-1)).toBe('s3');
  });

  it('refuses a request past the lane’s queue bound at once, and takes new ones once it drains', async () => {
    const lanes = new FairLanes({ slots: 1, perLane: () => 1, maxQueued: () => 2 });
    const started: string[] = [];
    const { job, finish } = jobs(started);
    const held = ['a1', 'a2', 'a3'].map((n) => lanes.run('a', job(n)));
    await expect(lanes.run('a', job('a4'))).rejects.toBeInstanceOf(LaneQueueFull);
    // Another caller is not affected by a's full queue.
    const b = lanes.run('b', job('b1'));
    await settle();
    for (const n of ['a1', 'b1', 'a2', 'a3']) await finish(n);
    await Promise.all([...held, b]);
    expect(started).toEqual(['a1', 'b1', 'a2', 'a3']);
    const again = lanes.run('a', job('a5'));
    await settle();
    await finish('a5');
    expect(await again).toBe('a5');
  });

  it('a failing job frees its turn', async () => {
    const lanes = new FairLanes({ slots: 1, perLane: () => 1, maxQueued: () => 5 });
    await expect(lanes.run('a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await lanes.run('a', async () => 'next')).toBe('next');
    expect(lanes.snapshot()).toEqual([]);
  });
});
