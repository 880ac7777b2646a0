import type { CommentKind, RatingDomain } from '@portal/domain/report-card-rules';
import type { ReportSettings } from '@portal/domain/report-card-schemas';

/** The form as typed: numbers as text until saved. */
export interface Form {
  traits: Record<RatingDomain, { id?: string; name: string }[]>;
  rating_labels: string[];
  require_comments: boolean;
  promotion: { min_average: string; trial_average: string; pass_mark: string; required_subjects: string[] };
  comment_bank: { kind: CommentKind; min: string; max: string; text: string }[];
  signature: string;
  stamp: string;
}

export function toForm(s: ReportSettings): Form {
  return {
    traits: { affective: s.traits.affective.map((t) => ({ ...t })), psychomotor: s.traits.psychomotor.map((t) => ({ ...t })) },
    rating_labels: [...s.rating_labels],
    require_comments: s.require_comments,
    promotion: {
      min_average: String(s.promotion.min_average),
      trial_average: s.promotion.trial_average === null ? '' : String(s.promotion.trial_average),
      pass_mark: String(s.promotion.pass_mark),
      required_subjects: [...s.promotion.required_subjects],
    },
    comment_bank: s.comment_bank.map((c) => ({ kind: c.kind, min: String(c.min), max: String(c.max), text: c.text })),
    signature: s.signature,
    stamp: s.stamp,
  };
}

/** A typed number: '' and text that is not a number are sent as NaN, which the schema refuses with its message. */
export const num = (v: string) => (v.trim() === '' ? Number.NaN : Number(v));

export function toInput(f: Form): unknown {
  return {
    ...f,
    promotion: {
      min_average: num(f.promotion.min_average),
      trial_average: f.promotion.trial_average.trim() === '' ? null : num(f.promotion.trial_average),
      pass_mark: num(f.promotion.pass_mark),
      required_subjects: f.promotion.required_subjects,
    },
    comment_bank: f.comment_bank.map((c) => ({ ...c, min: num(c.min), max: num(c.max) })),
  };
}
