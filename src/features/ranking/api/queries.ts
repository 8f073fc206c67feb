// The school's ranking of the month (issue 26, docs/discussions.md "Ranking"): one call to
// school_ranking(), which says whether the school has it on, the top 10 (first name and initial, issue
// 46) and the caller's own line; the student's LGPD choice (a ranking_opt_outs row = "não aparecer no
// ranking"); and the once-only notice that they appear (a ranking_notices row = dismissed).
import type { DbClient } from '@/platform/db';

export interface RankingEntry {
  position: number;
  user_id: string;
  name: string;
  avatar_url: string | null;
  points: number;
  lessons: number;
  quizzes: number;
  answers: number;
}

export interface Ranking {
  /** false: the school has it off — nothing is shown. */
  enabled: boolean;
  /** 'YYYY-MM-01' (the month in America/Sao_Paulo). */
  month: string;
  opted_out: boolean;
  weights: { lesson: number; quiz: number; answer: number };
  /** At most 10, in position order (ties share a position). */
  top: RankingEntry[];
  /** null: staff, super admin or opted out; position null: no points this month yet. `notice`: in the
   * top 10 classmates see, and not yet told so (until dismissRankingNotice). */
  me: { position: number | null; points: number; lessons: number; quizzes: number; answers: number; notice: boolean } | null;
}

export async function fetchRanking(client: DbClient, schoolId: string): Promise<Ranking> {
  const { data, error } = await client.rpc('school_ranking', { p_school_id: schoolId });
  if (error) throw error;
  const r = (data ?? {}) as Partial<Ranking>;
  return {
    enabled: r.enabled === true,
    month: r.month ?? '',
    opted_out: r.opted_out === true,
    weights: r.weights ?? { lesson: 10, quiz: 30, answer: 20 },
    top: (r.top ?? []).map((e) => ({ ...e, position: Number(e.position), points: Number(e.points) })),
    me: r.me ? { ...r.me, position: r.me.position === null ? null : Number(r.me.position), points: Number(r.me.points), notice: r.me.notice === true } : null,
  };
}

/** The student's choice: `visible` false inserts their opt-out row, true deletes it. */
export async function setRankingVisibility(client: DbClient, userId: string, visible: boolean): Promise<void> {
  const { error } = visible
    ? await client.from('ranking_opt_outs').delete().eq('user_id', userId)
    : await client.from('ranking_opt_outs').upsert({ user_id: userId }, { onConflict: 'user_id', ignoreDuplicates: true });
  if (error) throw error;
}

/** "Entendi" on the notice that the student appears in the ranking: it is not shown again. */
export async function dismissRankingNotice(client: DbClient, userId: string): Promise<void> {
  const { error } = await client.from('ranking_notices').upsert({ user_id: userId }, { onConflict: 'user_id', ignoreDuplicates: true });
  if (error) throw error;
}
