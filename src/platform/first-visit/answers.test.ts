// trackedFetch takes what the HTML's inline script asked for (./answers.ts) only for the very same
// request by the very same account, once, and only a 2xx answer.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { trackedFetch } from '@/platform/connection';
import { FIRST_VISIT_ANSWERS_FOR_MS, firstVisitKey } from './answers';

const URL_ = 'http://localhost:54321/rest/v1/rpc/student_catalog';
const BODY = '{"p_school_id":"s1","p_available_limit":24}';
const early = (status: number, auth = 'Bearer mine') => ({
  auth,
  response: Promise.resolve(new Response(`"early ${status}"`, { status })),
});
const post = (auth = 'Bearer mine', body = BODY) =>
  trackedFetch(URL_, { method: 'POST', headers: { Authorization: auth }, body });

let network: ReturnType<typeof vi.fn>;
beforeEach(() => {
  network = vi.fn(async () => new Response('"asked again"'));
  vi.stubGlobal('fetch', network);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  delete window.__firstVisit;
});

describe('trackedFetch and the first visit’s answers', () => {
  it('takes the answer of the same request once; a refetch asks again', async () => {
    window.__firstVisit = { [firstVisitKey('POST', URL_, BODY)]: early(200) };
    expect(await (await post()).json()).toBe('early 200');
    expect(network).not.toHaveBeenCalled();
    expect(await (await post()).json()).toBe('asked again');
  });

  it("never hands one account's answer to another token, nor to another body or method", async () => {
    window.__firstVisit = { [firstVisitKey('POST', URL_, BODY)]: early(200, 'Bearer someone-else') };
    expect(await (await post()).json()).toBe('asked again');
    window.__firstVisit = { [firstVisitKey('POST', URL_, BODY)]: early(200) };
    expect(await (await post('Bearer mine', '{"p_school_id":"s2","p_available_limit":24}')).json()).toBe('asked again');
    expect(await (await trackedFetch(URL_, { method: 'HEAD', headers: { Authorization: 'Bearer mine' } })).json()).toBe(
      'asked again',
    );
    expect(network).toHaveBeenCalledTimes(3);
  });

  it('asks again when the early answer failed or was refused (an expired token, say)', async () => {
    window.__firstVisit = { [firstVisitKey('POST', URL_, BODY)]: early(401) };
    expect(await (await post()).json()).toBe('asked again');
    window.__firstVisit = {
      [firstVisitKey('POST', URL_, BODY)]: {
        auth: 'Bearer mine',
        response: Promise.reject(new TypeError('Failed to fetch')),
      },
    };
    expect(await (await post()).json()).toBe('asked again');
  });

  it('leaves an answer the page did not take in its first seconds: it would be stale by then', async () => {
    window.__firstVisit = { [firstVisitKey('POST', URL_, BODY)]: early(200) };
    vi.spyOn(performance, 'now').mockReturnValue(FIRST_VISIT_ANSWERS_FOR_MS + 1);
    expect(await (await post()).json()).toBe('asked again');
    expect(window.__firstVisit).toBeUndefined();
  });
});
