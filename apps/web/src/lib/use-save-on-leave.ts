import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * What an autosaving sheet (the score grid, the report card sheets) does when the teacher leaves:
 * leaving the screen inside the app saves the rows still waiting for their autosave timer, and
 * leaving the page (reload, close) with `unsaved` rows asks first.
 */
export function useSaveOnLeave(
  saveRow: (key: string) => Promise<unknown>,
  timers: RefObject<Map<string, ReturnType<typeof setTimeout>>>,
  unsaved: number,
): void {
  const saveRef = useRef(saveRow);
  useLayoutEffect(() => {
    saveRef.current = saveRow;
  }, [saveRow]);
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const [key, t] of pending) {
        clearTimeout(t);
        void saveRef.current(key);
      }
    };
  }, [timers]);

  useEffect(() => {
    if (!unsaved) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);
}
