import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => cleanup());

// Screens load their lazy chunks in jsdom too: on a loaded 2-core CI machine the first import can
// outlast findBy's default second, while a screen that never shows still fails (after 5 s).
configure({ asyncUtilTimeout: 5_000 });

// jsdom has no ResizeObserver; Radix's radio group and others measure with it.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
