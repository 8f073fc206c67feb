// supabase-js builds a StorageClient in its constructor, which put storage-js (and iceberg-js, ~8 KB
// gzip) in every page's first download, though only a few screens store or sign files. The SPA's build
// (vite.config.ts) hands supabase-js this stand-in instead: the real client is loaded on the first
// storage call and every call is forwarded to it unchanged. Tests and scripts in Node use the real one.
//
// Calls become asynchronous until storage-js has loaded. The one synchronous method the app uses,
// getPublicUrl, always follows an awaited upload, so the real client is there by then; called earlier,
// it fails loudly instead of answering something different. Only from() exists: the app manages
// buckets in migrations, never from the browser.
import type { StorageClient as RealStorageClient } from '@supabase/storage-js';
import { forwarder } from './forwarder';

type StorageOptions = ConstructorParameters<typeof RealStorageClient>[3];

export class StorageClient {
  private real: RealStorageClient | null = null;
  private loading: Promise<RealStorageClient> | null = null;

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string> = {},
    private readonly customFetch?: typeof fetch,
    private readonly options?: StorageOptions,
  ) {}

  private load(): Promise<RealStorageClient> {
    this.loading ??= import('@supabase/storage-js').then(({ StorageClient: Real }) => {
      this.real = new Real(this.url, this.headers, this.customFetch, this.options);
      return this.real;
    });
    return this.loading;
  }

  from(bucket: string): object {
    return forwarder(
      () => this.real?.from(bucket) ?? null,
      () => this.load().then((real) => real.from(bucket)),
      `storage.from('${bucket}')`,
      ['getPublicUrl'],
    );
  }
}

// supabase-js re-exports this error class. The app must not use it from there (eslint.config.js
// forbids the import): it is a stand-in, never thrown; storage errors keep their real class.
export class StorageApiError extends Error {}
