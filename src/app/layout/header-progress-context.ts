import { createContext, useContext, useEffect } from 'react';

export interface HeaderProgressValue {
  progress: number | null;
  setProgress: (value: number | null) => void;
}

export const HeaderProgressContext = createContext<HeaderProgressValue>({ progress: null, setProgress: () => {} });

export function useHeaderProgress(): number | null {
  return useContext(HeaderProgressContext).progress;
}

/** Shows `percent` (0-100) in the member header's ring while the calling course page is mounted; null hides it. */
export function useHeaderCourseProgress(percent: number | null | undefined): void {
  const { setProgress } = useContext(HeaderProgressContext);
  useEffect(() => {
    setProgress(percent ?? null);
    return () => setProgress(null);
  }, [percent, setProgress]);
}
