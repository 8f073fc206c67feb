// The one box of the discussion: a new question, a reply or an edit. hand-held form: one textarea;
// react-hook-form (~9 KB) stays off the lesson route.
import { useId, useState } from 'react';
import { Send } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';
import { cn } from '@/utils/cn';
import type { CommentTone } from './comment-text';

export const COMMENT_MAX = 2000;

export interface CommentFormProps {
  label: string;
  /** Visible label (a reply or an edit) or for screen readers only (the page's box under its heading). */
  labelHidden?: boolean;
  placeholder?: string;
  submitLabel: string;
  pendingLabel?: string;
  initial?: string;
  pending: boolean;
  autoFocus?: boolean;
  /** Resolves when the server took it: the box empties. */
  onSubmit: (text: string, done: () => void) => void;
  onCancel?: () => void;
  className?: string;
  /** The lesson page's dark panel (default) or the admin area's white cards. */
  tone?: CommentTone;
}

export function CommentForm({ label, labelHidden, placeholder, submitLabel, pendingLabel = 'Enviando...', initial = '', pending, autoFocus, onSubmit, onCancel, className, tone = 'dark' }: CommentFormProps) {
  const id = useId();
  const light = tone === 'light';
  const [text, setText] = useState(initial);
  const empty = text.trim().length === 0;
  return (
    <form
      className={cn('grid flex-1 gap-2', className)}
      onSubmit={(e) => {
        e.preventDefault();
        if (empty || pending) return;
        onSubmit(text.trim(), () => setText(''));
      }}
    >
      <label htmlFor={id} className={labelHidden ? 'sr-only' : cn('text-xs font-medium', light ? 'text-foreground' : 'text-slate-300')}>
        {label}
      </label>
      <Textarea
        id={id}
        value={text}
        maxLength={COMMENT_MAX}
        autoFocus={autoFocus}
        onChange={(e) => setText(e.target.value)}
        placeholder={placeholder}
        className={light ? undefined : 'border-white/10 bg-white/5 text-slate-100 placeholder:text-slate-400'}
      />
      <div className="flex flex-wrap justify-end gap-2">
        {onCancel && (
          <Button type="button" variant="ghost" size="sm" className={light ? undefined : 'text-slate-300 hover:bg-white/10 hover:text-white'} onClick={onCancel}>
            Cancelar
          </Button>
        )}
        <Button type="submit" size={onCancel ? 'sm' : 'default'} disabled={empty || pending || text.trim() === initial.trim()}>
          <Send aria-hidden="true" />
          {pending ? pendingLabel : submitLabel}
        </Button>
      </div>
    </form>
  );
}
