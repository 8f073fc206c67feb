import { createContext, useContext } from 'react';

export interface HeaderProgressValue {
  progress: number | null;
  setProgress: (value: number | null) => void;
}

export const HeaderProgressContext = createContext<HeaderProgressValue>({ progress: null, setProgress: () => {} });

export function useHeaderProgress(): number | null {
  return useContext(HeaderProgressContext).progress;
}

/** What a course page calls with its percent (0-100) for the member header's ring, and null when it
 * leaves; the header shows the ring meanwhile. */
export function useSetHeaderProgress(): (percent: number | null) => void {
  return useContext(HeaderProgressContext).setProgress;
}
