import { koboToNaira, type ResultPinBatch, type ResultPinRow, type Term } from '@portal/domain';

export function presentBatch(r: {
  id: number;
  session_id: number;
  session_name: string;
  term: string | null;
  count: number;
  uses: number;
  created_at: string;
  sealed_at: string | null;
  created_by_name: string | null;
}): ResultPinBatch {
  return {
    id: r.id,
    session_id: r.session_id,
    session_name: r.session_name,
    term: r.term as Term | null,
    count: r.count,
    uses: r.uses,
    created_at: r.created_at,
    created_by: r.created_by_name,
    printable: r.sealed_at === null,
    sealed_at: r.sealed_at,
  };
}

export function presentPin(
  r: {
    serial: string;
    uses: number;
    max_uses: number;
    student_id: number | null;
    sold_at: string | null;
    sold_to: string | null;
    price_kobo: number | null;
    sold_by_name: string | null;
  },
  admissionNumbers: Map<number, string>,
): ResultPinRow {
  return {
    serial: r.serial,
    state: r.uses === 0 ? 'unused' : r.uses >= r.max_uses ? 'exhausted' : 'used',
    uses: r.uses,
    uses_left: Math.max(0, r.max_uses - r.uses),
    bound_admission_number: r.student_id ? (admissionNumbers.get(r.student_id) ?? null) : null,
    sold: r.sold_at !== null,
    sold_at: r.sold_at,
    sold_by: r.sold_at ? r.sold_by_name : null,
    sold_to: r.sold_to,
    price: r.price_kobo === null ? null : koboToNaira(r.price_kobo),
  };
}
