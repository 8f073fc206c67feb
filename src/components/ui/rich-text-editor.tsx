import { useEffect, useRef, type ReactNode } from 'react';
import { Bold, Italic, Link2, List, ListOrdered, Underline } from 'lucide-react';
import { cn } from '@/utils/cn';
import { sanitizeHtml } from '@/utils/sanitize';

export interface RichTextEditorProps {
  id: string;
  value: string;
  onChange: (html: string) => void;
  /** id of the visible label element. */
  labelledBy: string;
  describedBy?: string;
  invalid?: boolean;
  className?: string;
}

function ToolButton({ label, onClick, children }: { label: string; onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      // Keep the selection in the editor while clicking the toolbar.
      onMouseDown={(e) => e.preventDefault()}
      onClick={onClick}
      className="flex size-8 cursor-pointer items-center justify-center rounded-md text-foreground hover:bg-muted focus-visible:outline-2 focus-visible:outline-primary"
    >
      {children}
    </button>
  );
}

/**
 * A small rich-text field (bold, italic, underline, lists, links) whose value is HTML, sanitized with
 * the SPEC §5 allow-list on every change, so what is saved is what students may be shown.
 */
export function RichTextEditor({ id, value, onChange, labelledBy, describedBy, invalid, className }: RichTextEditorProps) {
  const ref = useRef<HTMLDivElement>(null);
  // Set the HTML only when it differs from what the editor shows (never while the user types).
  useEffect(() => {
    if (ref.current && ref.current.innerHTML !== value) ref.current.innerHTML = sanitizeHtml(value);
  }, [value]);

  function emit() {
    if (ref.current) onChange(sanitizeHtml(ref.current.innerHTML));
  }
  function exec(command: string, arg?: string) {
    ref.current?.focus();
    document.execCommand(command, false, arg);
    emit();
  }

  return (
    <div className={cn('overflow-hidden rounded-lg border border-border bg-white focus-within:border-primary', invalid && 'border-destructive', className)}>
      <div role="toolbar" aria-label="Formatação" className="flex flex-wrap gap-1 border-b border-border bg-muted/40 p-1">
        <ToolButton label="Negrito" onClick={() => exec('bold')}>
          <Bold className="size-4" aria-hidden="true" />
        </ToolButton>
        <ToolButton label="Itálico" onClick={() => exec('italic')}>
          <Italic className="size-4" aria-hidden="true" />
        </ToolButton>
        <ToolButton label="Sublinhado" onClick={() => exec('underline')}>
          <Underline className="size-4" aria-hidden="true" />
        </ToolButton>
        <ToolButton label="Lista" onClick={() => exec('insertUnorderedList')}>
          <List className="size-4" aria-hidden="true" />
        </ToolButton>
        <ToolButton label="Lista numerada" onClick={() => exec('insertOrderedList')}>
          <ListOrdered className="size-4" aria-hidden="true" />
        </ToolButton>
        <ToolButton
          label="Link"
          onClick={() => {
            const url = window.prompt('Endereço do link (https://...)');
            if (url && /^https?:\/\/\S+$/i.test(url.trim())) exec('createLink', url.trim());
          }}
        >
          <Link2 className="size-4" aria-hidden="true" />
        </ToolButton>
      </div>
      <div
        id={id}
        ref={ref}
        role="textbox"
        aria-multiline="true"
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        contentEditable
        suppressContentEditableWarning
        className="prose-content min-h-32 max-w-none px-3 py-2 text-sm outline-none"
        onInput={emit}
        onBlur={emit}
      />
    </div>
  );
}
