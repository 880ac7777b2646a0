import {
  forwardRef,
  useId,
  useState,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';

const CONTROL =
  'block min-h-11 w-full rounded-lg border bg-white px-3 py-2.5 text-base text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-brand-700 focus:ring-2 focus:ring-brand-700/30 focus:outline-none disabled:bg-slate-100 disabled:text-slate-500';

function controlClass(error?: string | string[]) {
  return `${CONTROL} ${error && error.length ? 'border-red-600' : 'border-slate-300'}`;
}

function messages(error?: string | string[]): string[] {
  if (!error) return [];
  return Array.isArray(error) ? error : [error];
}

/** A field's id and the attributes its control carries, so a screen reader announces its error with it. */
function useControl(id: string | undefined, error: string | string[] | undefined, required: boolean | undefined) {
  const auto = useId();
  const fid = id ?? auto;
  const invalid = messages(error).length > 0;
  const control = {
    id: fid,
    required,
    'aria-invalid': invalid ? true : undefined,
    'aria-describedby': invalid ? `${fid}-error` : undefined,
  };
  return { fid, control };
}

interface FieldShellProps {
  id: string;
  label: ReactNode;
  error?: string | string[];
  hint?: ReactNode;
  required?: boolean;
  children: ReactNode;
}

function FieldShell({ id, label, error, hint, required, children }: FieldShellProps) {
  const errs = messages(error);
  return (
    <div className="flex flex-col gap-1">
      {/* The required marker sits outside the label so the field's accessible name is just the label. */}
      <span className="text-sm font-medium text-slate-800">
        <label htmlFor={id}>{label}</label>
        {required && (
          <span className="text-red-700" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </span>
      {children}
      {hint && !errs.length && (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
      {errs.map((m) => (
        <p key={m} id={`${id}-error`} className="text-sm text-red-700" data-testid="field-error">
          {m}
        </p>
      ))}
    </div>
  );
}

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: ReactNode;
  error?: string | string[];
  hint?: ReactNode;
}

export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField(
  { label, error, hint, id, required, className = '', ...rest },
  ref,
) {
  const auto = useId();
  const fid = id ?? auto;
  const errs = messages(error);
  return (
    <FieldShell id={fid} label={label} error={error} hint={hint} required={required}>
      <input
        ref={ref}
        id={fid}
        required={required}
        aria-invalid={errs.length ? true : undefined}
        aria-describedby={errs.length ? `${fid}-error` : hint ? `${fid}-hint` : undefined}
        className={`${controlClass(error)} ${className}`}
        {...rest}
      />
    </FieldShell>
  );
});

export const PasswordField = forwardRef<HTMLInputElement, Omit<TextFieldProps, 'type'>>(function PasswordField(
  { label, error, hint, id, required, ...rest },
  ref,
) {
  const { fid, control } = useControl(id, error, required);
  const [visible, setVisible] = useState(false);
  return (
    <FieldShell id={fid} label={label} error={error} hint={hint} required={required}>
      <div className="relative">
        <input ref={ref} type={visible ? 'text' : 'password'} {...control} className={`${controlClass(error)} pr-20`} {...rest} />
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          className="absolute inset-y-0 right-0 min-w-16 rounded-r-lg px-3 text-sm font-medium text-brand-800 hover:bg-brand-50"
          aria-label={visible ? 'Hide password' : 'Show password'}
          aria-pressed={visible}
        >
          {visible ? 'Hide' : 'Show'}
        </button>
      </div>
    </FieldShell>
  );
});

export interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: ReactNode;
  error?: string | string[];
  options: readonly { value: string; label: string }[] | readonly string[];
  placeholder?: string;
}

export const SelectField = forwardRef<HTMLSelectElement, SelectFieldProps>(function SelectField(
  { label, error, options, placeholder, id, required, ...rest },
  ref,
) {
  const { fid, control } = useControl(id, error, required);
  return (
    <FieldShell id={fid} label={label} error={error} required={required}>
      <select ref={ref} {...control} className={controlClass(error)} {...rest}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((o) => {
          const opt = typeof o === 'string' ? { value: o, label: o } : o;
          return (
            <option key={opt.value} value={opt.value}>
              {opt.label}
            </option>
          );
        })}
      </select>
    </FieldShell>
  );
});

export interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: ReactNode;
  error?: string | string[];
}

export const TextAreaField = forwardRef<HTMLTextAreaElement, TextAreaFieldProps>(function TextAreaField(
  { label, error, id, required, ...rest },
  ref,
) {
  const { fid, control } = useControl(id, error, required);
  return (
    <FieldShell id={fid} label={label} error={error} required={required}>
      <textarea ref={ref} {...control} className={controlClass(error)} {...rest} />
    </FieldShell>
  );
});
