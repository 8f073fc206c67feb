// whenPageSettled (issue 21): deferred code waits for the page's data, then for a paint and an idle
// moment; every waiter of the page shares one watch (issue 45).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import { whenPageSettled } from './page-settled';
import { queryClient } from '@/platform/query-client';

afterEach(() => {
  vi.restoreAllMocks();
  queryClient.clear();
});

describe('whenPageSettled', () => {
  it('waits while one of the page queries is fetching, then runs once', async () => {
    let answer!: (v: string) => void;
    void queryClient.fetchQuery({ queryKey: ['settle-test'], queryFn: () => new Promise<string>((r) => (answer = r)) });
    const run = vi.fn();
    whenPageSettled(run);
    await new Promise((r) => setTimeout(r, 400));
    expect(run).not.toHaveBeenCalled();
    answer('pronto');
    await waitFor(() => expect(run).toHaveBeenCalledTimes(1));
    await new Promise((r) => setTimeout(r, 300));
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs on a page with nothing to fetch, and not at all once cancelled', async () => {
    const run = vi.fn();
    const cancelled = vi.fn();
    whenPageSettled(run);
    whenPageSettled(cancelled)();
    await waitFor(() => expect(run).toHaveBeenCalledTimes(1));
    await new Promise((r) => setTimeout(r, 300));
    expect(cancelled).not.toHaveBeenCalled();
  });

  it('every waiter of a settling page shares one watch: they start in turn, and one cancelled keeps it for the others', async () => {
    let answer!: (v: string) => void;
    void queryClient.fetchQuery({ queryKey: ['settle-shared'], queryFn: () => new Promise<string>((r) => (answer = r)) });
    const subscribe = vi.spyOn(queryClient.getQueryCache(), 'subscribe');
    const started: string[] = [];
    whenPageSettled(() => started.push('toaster'));
    const stopMenu = whenPageSettled(() => started.push('menu'));
    await new Promise((r) => setTimeout(r, 100));
    // Arrives while the page is still settling: joins the same watch.
    whenPageSettled(() => started.push('auth'));
    stopMenu();
    await new Promise((r) => setTimeout(r, 300));
    expect(started).toEqual([]);
    answer('pronto');
    await waitFor(() => expect(started).toEqual(['toaster', 'auth']));
    expect(subscribe).toHaveBeenCalledTimes(1);
  });
});
