// Issue 40's outside attack on a turma's seats (docs/turmas.md "Seats", 20261128008500), in real Deno
// against the fake Asaas: unpaid charges cannot drain a launch (a hold lasts the PIX's life, a boleto's is
// cut to it, and one buyer identity holds one seat), a refunded seat comes back, and a charge paid after
// its hold lapsed never puts the turma over its seats. Each attack beside a control.
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { shop, spDate, must } from './turma-shop.ts';

const backend = useBackend({ fakeAsaas: true, functionSecrets: { SITE_URL: 'http://localhost:5999' } });
const s = shop(backend);
const staff = backend.signedIn('adminDemo');
const OTHER_CPF = '111.444.777-35';
const THIRD_CPF = '123.456.789-09';
type TurmaRow = { id: string; students: number; seats_taken: number; held: number };
/** The charge's clock moved back (made `days` ago, due `due`), as time would: payments_touch keeps created_at otherwise. */
async function chargeMadeAgo(paymentId: unknown, days: number, due: string) {
  await backend.sql('alter table public.payments disable trigger payments_touch');
  await backend.sql(`update public.payments set created_at = now() - make_interval(days => $2), due_date = $3 where id = $1`, [String(paymentId), days, due]);
  await backend.sql('alter table public.payments enable trigger payments_touch');
}
const turmaRow = async (courseId: string, turmaId: string) =>
  ((await must(staff.rpc('admin_turmas', { p_course_id: courseId }))) as TurmaRow[]).find((t) => t.id === turmaId)!;

describe('seats held by charges nobody pays', () => {
  it('control: a buyer of a turma with free seats gets a charge; the seat shows as held, apart from the students', async () => {
    const id = await s.course('Curso controle');
    const turma = await s.insertRow('turmas', { course_id: id, name: 'Três vagas', starts_on: spDate(10), seats: 3 });
    const real = await s.buyer('real');
    expect(await s.offer(real.client, id)).toMatchObject({ state: 'open', turma: { id: turma, seats_left: 3 } });
    expect((await s.charge(real.client, id)).status).toBe(200);
    expect(await turmaRow(id, turma)).toMatchObject({ students: 0, seats_taken: 1, held: 1 });
    expect(await s.offer((await s.buyer('outro')).client, id)).toMatchObject({ state: 'open', turma: { id: turma, seats_left: 2 } });
  });

  it('attack: three throwaway accounts with one CPF leave unpaid charges; they hold one seat, the real buyer still buys', async () => {
    const id = await s.course('Curso do lançamento');
    const turma = await s.insertRow('turmas', { course_id: id, name: 'Turma de lançamento', starts_on: spDate(10), seats: 3 });
    const holds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const fake = await s.buyer(`descartavel${i}`);
      const res = await s.charge(fake.client, id, i === 0 ? 'PIX' : 'BOLETO');
      expect(res.status).toBe(200);
      holds.push(String(res.body.payment_id));
    }
    const rows = (await must(s.service.from('payments').select('status').in('id', holds))) as { status: string }[];
    expect(rows.map((r) => r.status)).toEqual(['PENDING', 'PENDING', 'PENDING']);

    const real = await s.buyer('real');
    expect(await s.offer(real.client, id)).toMatchObject({ state: 'open', turma: { id: turma, seats_left: 2 } });
    expect((await s.charge(real.client, id, 'PIX', OTHER_CPF)).status).toBe(200);
    // Staff see the throwaway accounts' one hold and the real buyer's apart from the students.
    expect(await turmaRow(id, turma)).toMatchObject({ students: 0, held: 2 });
  });

  it("attack: a boleto's hold ends with the day after its charge, not its 3-day due date; a PIX's with its QR (its due date)", async () => {
    const id = await s.course('Curso do boleto');
    const turma = await s.insertRow('turmas', { course_id: id, name: 'Uma vaga', starts_on: spDate(10), seats: 1 });
    const boleto = await s.charge((await s.buyer('boleto')).client, id, 'BOLETO', OTHER_CPF);
    expect(boleto.status).toBe(200);
    const [row] = (await must(s.service.from('payments').select('due_date').eq('id', String(boleto.body.payment_id)))) as { due_date: string }[];
    expect(row!.due_date).toBe(spDate(3));
    const next = await s.buyer('seguinte');
    // Held today (control of the hold itself).
    expect((await s.charge(next.client, id, 'PIX', THIRD_CPF)).status).toBe(409);
    // Two days later (the charge's clock moved back): the boleto is still payable, but holds no more.
    await chargeMadeAgo(boleto.body.payment_id, 2, spDate(1));
    expect((await s.charge(next.client, id, 'PIX', THIRD_CPF)).status).toBe(200);
    expect(await turmaRow(id, turma)).toMatchObject({ held: 1, seats_taken: 1 });
  });
});

describe('a refunded seat', () => {
  it('control: a paid seat is taken, and the turma with a seat left still sells', async () => {
    const id = await s.course('Curso de 2 vagas');
    const turma = await s.insertRow('turmas', { course_id: id, name: 'Duas vagas', starts_on: spDate(5), seats: 2 });
    const first = await s.buyer();
    const res = await s.charge(first.client, id);
    expect(await s.event(res, 'PAYMENT_RECEIVED')).toBe('enrolled');
    expect(await turmaRow(id, turma)).toMatchObject({ students: 1, seats_taken: 1, held: 0 });
    const second = await s.buyer();
    expect(await s.offer(second.client, id)).toMatchObject({ state: 'open', turma: { id: turma, seats_left: 1 } });
    expect((await s.charge(second.client, id)).status).toBe(200);
  });

  it('attack: after the refund the seat is free again for the next buyer; staff cannot give the refunded one access over the seats', async () => {
    const id = await s.course('Curso de 1 vaga');
    const turma = await s.insertRow('turmas', { course_id: id, name: 'Uma vaga', starts_on: spDate(5), seats: 1 });
    const refunded = await s.buyer('devolve');
    const res = await s.charge(refunded.client, id);
    expect(await s.event(res, 'PAYMENT_RECEIVED')).toBe('enrolled');
    expect(await s.event(res, 'PAYMENT_REFUNDED')).toBe('paused');
    expect(await must(s.service.from('enrollments').select('status, turma_id').eq('user_id', refunded.id).eq('course_id', id))).toEqual([{ status: 'PAUSED', turma_id: turma }]);

    const next = await s.buyer();
    expect(await s.offer(next.client, id)).toMatchObject({ state: 'open', turma: { id: turma, seats_left: 1 } });
    expect((await s.charge(next.client, id, 'PIX', OTHER_CPF)).status).toBe(200);
    expect(await turmaRow(id, turma)).toMatchObject({ students: 0, seats_taken: 1, held: 1 });
    // The next buyer's charge holds the seat: staff re-activating the refunded student is refused, nothing changes.
    const reactivate = await staff.from('enrollments').update({ status: 'ACTIVE' }).eq('user_id', refunded.id).eq('course_id', id).select('id');
    expect(reactivate.error?.message).toBe('Turma esgotada.');
    expect(await must(s.service.from('enrollments').select('status').eq('user_id', refunded.id).eq('course_id', id))).toEqual([{ status: 'PAUSED' }]);
  });
});

describe('a payment after its hold lapsed', () => {
  it('control: paid in time, the buyer gets the only seat; a second buyer is refused', async () => {
    const id = await s.course('Curso controle');
    const turma = await s.insertRow('turmas', { course_id: id, name: 'Uma vaga', starts_on: spDate(10), seats: 1 });
    const a = await s.buyer('a');
    const res = await s.charge(a.client, id);
    expect((await s.charge((await s.buyer('b')).client, id, 'PIX', OTHER_CPF)).status).toBe(409);
    expect(await s.event(res, 'PAYMENT_RECEIVED')).toBe('enrolled');
    expect(await must(s.service.from('enrollments').select('user_id').eq('turma_id', turma))).toEqual([{ user_id: a.id }]);
  });

  /** A 1-seat turma whose seat went to a buyer who paid in time after the first buyer's hold lapsed; the late charge. */
  async function lapsedAndTaken(id: string, turma: string) {
    const late = await s.buyer('atrasado');
    const lateCharge = await s.charge(late.client, id);
    expect(lateCharge.status).toBe(200);
    // Two days later (the hold's clock): the PIX's due date is yesterday, so the seat is on sale again.
    await chargeMadeAgo(lateCharge.body.payment_id, 2, spDate(-1));
    const onTime = await s.buyer('pontual');
    const res = await s.charge(onTime.client, id, 'PIX', OTHER_CPF);
    expect(res.status).toBe(200);
    expect(await s.event(res, 'PAYMENT_RECEIVED')).toBe('enrolled');
    expect(await must(s.service.from('enrollments').select('user_id').eq('turma_id', turma))).toEqual([{ user_id: onTime.id }]);
    return { late, lateCharge };
  }

  it('attack: the lapsed charge paid late goes to the next turma with a seat, never over the first one', async () => {
    const id = await s.course('Curso da vaga vencida');
    const turma = await s.insertRow('turmas', { course_id: id, name: 'Uma vaga', starts_on: spDate(10), seats: 1 });
    const nextTurma = await s.insertRow('turmas', { course_id: id, name: 'Turma seguinte', starts_on: spDate(40), seats: 5 });
    const { late, lateCharge } = await lapsedAndTaken(id, turma);
    expect(await s.event(lateCharge, 'PAYMENT_RECEIVED')).toBe('enrolled');
    expect((await must(s.service.from('enrollments').select('user_id').eq('turma_id', turma))) as unknown[]).toHaveLength(1);
    expect(await must(s.service.from('enrollments').select('status, turma_id').eq('user_id', late.id).eq('course_id', id))).toEqual([{ status: 'ACTIVE', turma_id: nextTurma }]);
    expect(await must(s.service.from('payment_items').select('turma_id').eq('payment_id', String(lateCharge.body.payment_id)))).toEqual([{ turma_id: nextTurma }]);
  });

  it('attack: with no other turma the late payer is kept PAUSED outside any turma (no access, no seat), the turma stays at its seats', async () => {
    const id = await s.course('Curso sem outra turma');
    const turma = await s.insertRow('turmas', { course_id: id, name: 'Uma vaga', starts_on: spDate(10), seats: 1 });
    const { late, lateCharge } = await lapsedAndTaken(id, turma);
    expect(await s.event(lateCharge, 'PAYMENT_RECEIVED')).toBe('ignored');
    expect((await must(s.service.from('enrollments').select('user_id').eq('turma_id', turma))) as unknown[]).toHaveLength(1);
    expect(await must(s.service.from('enrollments').select('status, turma_id').eq('user_id', late.id).eq('course_id', id))).toEqual([{ status: 'PAUSED', turma_id: null }]);
    expect(await must(s.service.from('payments').select('status').eq('id', String(lateCharge.body.payment_id)))).toEqual([{ status: 'RECEIVED' }]);
    expect(await turmaRow(id, turma)).toMatchObject({ students: 1, seats_taken: 1, held: 0 });
  });
});
