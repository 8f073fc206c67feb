// whenPageSettled (issue 21): deferred code waits for the page's data, then for a paint and an idle moment.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import { whenPageSettled } from './page-settled';
import { queryClient } from '@/platform/query-client';

afterEach(() => queryClient.clear());

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
});
