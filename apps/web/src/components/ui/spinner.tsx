export function Spinner({ size = 'md', label }: { size?: 'sm' | 'md' | 'lg'; label?: string }) {
  const px = size === 'sm' ? 'h-4 w-4 border-2' : size === 'lg' ? 'h-10 w-10 border-4' : 'h-6 w-6 border-2';
  return (
    <span className="inline-flex items-center gap-2" role={label ? 'status' : undefined}>
      <span className={`${px} animate-spin rounded-full border-current border-t-transparent`} aria-hidden="true" />
      {label && <span className="text-sm text-slate-600">{label}</span>}
    </span>
  );
}

export function LoadingBlock({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="flex justify-center py-10 text-brand-800">
      <Spinner size="lg" label={label} />
    </div>
  );
}
