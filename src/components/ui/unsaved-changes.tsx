// Typed settings are saved by their form's "Salvar" (docs/conventions.md, "Settings"); until then,
// leaving the page asks first. A page with settings forms is wrapped in one <UnsavedChangesScope>
// (react-router lets a page hold a single blocker), and each form tells it whether it holds changes
// with useUnsavedChanges(formState.isDirty). Leaving by a link of the app opens "Sair sem salvar?";
// reloading or closing the tab gets the browser's own question (beforeunload).
import { createContext, useContext, useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { useBlocker } from 'react-router-dom';
import { ConfirmDialog } from './confirm-dialog';

interface UnsavedChanges {
  set: (form: string, dirty: boolean) => void;
}

const UnsavedChangesContext = createContext<UnsavedChanges | null>(null);

export function UnsavedChangesScope({ children }: { children: ReactNode }) {
  const [dirtyForms, setDirtyForms] = useState<ReadonlySet<string>>(() => new Set());
  const registry = useMemo<UnsavedChanges>(
    () => ({
      set: (form, dirty) =>
        setDirtyForms((forms) => {
          if (forms.has(form) === dirty) return forms;
          const next = new Set(forms);
          if (dirty) next.add(form);
          else next.delete(form);
          return next;
        }),
    }),
    [],
  );
  const unsaved = dirtyForms.size > 0;
  // Another page only: the page's own ?query changes (tabs, filters) keep what was typed.
  const blocker = useBlocker(({ currentLocation, nextLocation }) => unsaved && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (!unsaved) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [unsaved]);

  return (
    <UnsavedChangesContext.Provider value={registry}>
      {children}
      <ConfirmDialog
        open={blocker.state === 'blocked'}
        onOpenChange={(open) => !open && blocker.reset?.()}
        title="Sair sem salvar?"
        description="Há alterações nesta página que ainda não foram salvas. Se sair agora, elas serão perdidas."
        cancelLabel="Continuar editando"
        confirmLabel="Sair sem salvar"
        onConfirm={() => blocker.proceed?.()}
      />
    </UnsavedChangesContext.Provider>
  );
}

/** Tells the page's <UnsavedChangesScope> whether this form holds changes not saved yet. */
// eslint-disable-next-line react-refresh/only-export-components -- the scope and its hook are one piece
export function useUnsavedChanges(dirty: boolean): void {
  const scope = useContext(UnsavedChangesContext);
  if (!scope) throw new Error('useUnsavedChanges: wrap the page in <UnsavedChangesScope>');
  const form = useId();
  useEffect(() => {
    scope.set(form, dirty);
  }, [scope, form, dirty]);
  useEffect(() => () => scope.set(form, false), [scope, form]);
}
