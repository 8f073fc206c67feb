import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthRetryableFetchError } from '@supabase/supabase-js';
import { trackedFetch, useConnectionLost } from './connection';
import { isNetworkError } from './network-error';
import { createQueryClient } from './query-client';

afterEach(() => vi.unstubAllGlobals());

describe('isNetworkError', () => {
  it('recognises each client’s way of saying the server could not be reached', () => {
    expect(isNetworkError(new TypeError('Failed to fetch'))).toBe(true);
    // postgrest-js resolves with this instead of throwing.
    expect(isNetworkError({ message: 'TypeError: Failed to fetch', details: '', hint: '', code: '' })).toBe(true);
    expect(isNetworkError(new AuthRetryableFetchError('Failed to fetch', 0))).toBe(true);
    // functions-js's FunctionsFetchError, known by name (the app bundles stand-ins for its classes).
    expect(isNetworkError(Object.assign(new Error('Failed to send a request to the Edge Function'), { name: 'FunctionsFetchError' }))).toBe(true);
  });

  it('leaves the server’s own answers alone', () => {
    expect(isNetworkError({ message: 'permission denied for table courses', code: '42501', details: null, hint: null })).toBe(false);
    expect(isNetworkError({ message: 'TypeError: x', code: '22P02' })).toBe(false);
    expect(isNetworkError(new Error('Invalid login credentials'))).toBe(false);
    expect(isNetworkError(null)).toBe(false);
  });
});

describe('retries', () => {
  const retry = createQueryClient().getDefaultOptions().queries!.retry as (n: number, e: unknown) => boolean;

  it('keeps retrying a read while the server is unreachable, but not a refusal', () => {
    expect(retry(50, new TypeError('Failed to fetch'))).toBe(true);
    expect(retry(0, { status: 403, message: 'forbidden' })).toBe(false);
    expect(retry(2, new Error('boom'))).toBe(false);
  });
});

describe('trackedFetch', () => {
  it('reports the connection lost on a failed request and back on the next answer, whatever its status', async () => {
    const { result } = renderHook(() => useConnectionLost());
    expect(result.current).toBe(false);

    vi.stubGlobal('fetch', vi.fn().mockRejectedValueOnce(new TypeError('Failed to fetch')));
    await act(() => expect(trackedFetch('http://api/rest/v1/x')).rejects.toThrow('Failed to fetch'));
    expect(result.current).toBe(true);

    // An aborted request says nothing about the server.
    vi.stubGlobal('fetch', vi.fn().mockRejectedValueOnce(new DOMException('aborted', 'AbortError')));
    await act(() => expect(trackedFetch('http://api/rest/v1/x')).rejects.toThrow('aborted'));
    expect(result.current).toBe(true);

    vi.stubGlobal('fetch', vi.fn().mockResolvedValueOnce(new Response('{}', { status: 401 })));
    await act(async () => void (await trackedFetch('http://api/rest/v1/x')));
    expect(result.current).toBe(false);
  });
});
