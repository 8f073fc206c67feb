// pg_cron's five-field schedules (minute hour day-of-month month day-of-week), in the database's time
// zone as pg_cron reads them (UTC on Supabase): '*', 'n', 'a-b', lists and '/step'. pg_cron's
// 'n seconds' interval form is not used by our migrations and is refused.

const FIELDS: [min: number, max: number][] = [[0, 59], [0, 23], [1, 31], [1, 12], [0, 7]];

function parseField(field: string, [min, max]: [number, number]): Set<number> {
  const values = new Set<number>();
  for (const part of field.split(',')) {
    const [range, stepText] = part.split('/') as [string, string | undefined];
    const step = stepText === undefined ? 1 : Number(stepText);
    let from = min;
    let to = max;
    if (range !== '*') {
      const [a, b] = range.split('-').map(Number) as [number, number | undefined];
      from = a;
      to = b ?? (stepText === undefined ? a : max);
    }
    if (![from, to, step].every(Number.isInteger) || step < 1 || from < min || to > max || from > to) {
      throw new Error(`invalid cron field "${field}"`);
    }
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return values;
}

export type CronSchedule = (at: Date) => boolean;

/** Whether a job of this schedule is due in the minute of `at` (UTC). */
export function parseCron(schedule: string): CronSchedule {
  const fields = schedule.trim().split(/\s+/);
  if (fields.length !== 5) throw new Error(`invalid cron schedule "${schedule}"`);
  const [minutes, hours, days, months, weekdays] = fields.map((f, i) => parseField(f, FIELDS[i]!)) as Set<number>[];
  if (weekdays!.has(7)) weekdays!.add(0); // 0 and 7 are both Sunday
  const anyDay = fields[2] === '*';
  const anyWeekday = fields[4] === '*';
  return (at) => {
    if (!minutes!.has(at.getUTCMinutes()) || !hours!.has(at.getUTCHours()) || !months!.has(at.getUTCMonth() + 1)) return false;
    const day = days!.has(at.getUTCDate());
    const weekday = weekdays!.has(at.getUTCDay());
    // Vixie cron: when both are restricted, either matches.
    return anyDay || anyWeekday ? day && weekday : day || weekday;
  };
}
