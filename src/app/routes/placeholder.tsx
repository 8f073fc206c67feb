import type { ReactNode } from 'react';

/** Heading-only page for screens that later issues build. */
export function PagePlaceholder({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
      <p className="mt-2 text-sm text-muted-foreground">{children ?? 'Esta página está em construção.'}</p>
    </section>
  );
}
