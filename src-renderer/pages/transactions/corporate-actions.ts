/**
 * The Corporate actions panel's pure parts (docs/ui.md §Transactions, docs/journal.md §Corporate actions): the fields
 * each kind of action takes, the request a form makes, and an action's terms in words.
 */
import { CORPORATE_ACTION_LABELS, type CorporateActionOutcome, type CorporateActionType } from '../../../src-shared/api/constants';
import type { CorporateActionInputT, CorporateActionJsonT } from '../../../src-shared/api/schemas';

/** The form's state: text as typed. */
export interface ActionFormState {
  type: CorporateActionType;
  /** '' = every account. */
  accountId: string;
  date: string;
  symbol: string;
  newSymbol: string;
  ratio: string;
  cashPerShare: string;
  costFraction: string;
  quantity: string;
  note: string;
}

/** The fields a kind of action shows, each with its label ('' = not shown) and whether it is required. */
export interface ActionFields {
  newSymbol: { label: string; required: boolean } | null;
  ratio: { label: string; required: boolean } | null;
  cashPerShare: { label: string } | null;
  costFraction: { label: string; required: boolean } | null;
  quantity: { label: string } | null;
  /** The rule the journal applies, in a sentence (docs/journal.md §Corporate actions). */
  help: string;
}

export function fieldsOfAction(type: CorporateActionType): ActionFields {
  switch (type) {
    case 'split':
      return {
        newSymbol: { label: 'New symbol (optional)', required: false },
        ratio: { label: 'New per old share', required: true },
        cashPerShare: { label: 'Cash in lieu / share' },
        costFraction: null,
        quantity: null,
        help: 'Ratio: new shares per old, 2 for a 2-for-1 split, 0.1 for 1-for-10. Each lot keeps its basis and opening date, its shares × the ratio; a fraction paid in cash (cash in lieu, per new share) is sold at it. Open options: a whole ratio multiplies the contracts and divides the strike, any other changes the deliverable under an adjusted root (e.g. XYZ1).',
      };
    case 'symbol_change':
      return {
        newSymbol: { label: 'New symbol', required: true },
        ratio: { label: 'New per old (1)', required: false },
        cashPerShare: null,
        costFraction: null,
        quantity: null,
        help: 'The lots, the open options and the campaign go on under the new symbol.',
      };
    case 'merger':
      return {
        newSymbol: { label: 'New symbol', required: false },
        ratio: { label: 'New per old share', required: false },
        cashPerShare: { label: 'Cash per old share' },
        costFraction: { label: 'Basis kept (0–1)', required: false },
        quantity: null,
        help: 'Without a new symbol it is a merger for cash. The new shares keep the lots’ dates and the part of their basis you give (default: the cash takes as much basis as it returns); the cash is a sale against the rest. Open options deliver ratio × 100 new shares plus the cash.',
      };
    case 'stock_dividend':
      return {
        newSymbol: null,
        ratio: { label: 'Per share held', required: true },
        cashPerShare: { label: 'Cash in lieu / share' },
        costFraction: null,
        quantity: null,
        help: 'Ratio: shares received per share held, 0.05 for 5%. The new shares are a lot of their own at zero cost, opened that day.',
      };
    case 'spinoff':
      return {
        newSymbol: { label: 'New symbol', required: true },
        ratio: { label: 'New per share held', required: true },
        cashPerShare: { label: 'Cash in lieu / share' },
        costFraction: { label: 'Basis moved (0–1)', required: true },
        quantity: null,
        help: 'The part of each lot’s basis the issuer’s tax notice gives the new company moves to the new shares, opened on the lot’s own date.',
      };
    case 'free_shares':
      return {
        newSymbol: null,
        ratio: null,
        cashPerShare: null,
        costFraction: null,
        quantity: { label: 'Shares received' },
        help: 'Shares at zero cost, opened that day: their sale realizes its whole proceeds.',
      };
  }
}

export function blankAction(today: string): ActionFormState {
  return { type: 'split', accountId: '', date: today, symbol: '', newSymbol: '', ratio: '', cashPerShare: '', costFraction: '', quantity: '', note: '' };
}

const text = (value: number | null) => (value === null ? '' : String(value));

/** An action entered by hand as the form shows it. */
export function actionState(action: CorporateActionJsonT): ActionFormState {
  return {
    type: action.type,
    accountId: action.accountId ?? '',
    date: action.date,
    symbol: action.symbol,
    newSymbol: action.newSymbol ?? '',
    ratio: text(action.ratio),
    cashPerShare: text(action.cashPerShare),
    costFraction: text(action.costFraction),
    quantity: text(action.quantity),
    note: action.note,
  };
}

function numberOf(value: string): number | undefined {
  return value.trim() === '' ? undefined : Number(value);
}

/** The request of a form: the fields its kind shows, blank ones left out (the server names what is missing). */
export function actionInput(state: ActionFormState): CorporateActionInputT {
  const fields = fieldsOfAction(state.type);
  const input: CorporateActionInputT = { type: state.type, date: state.date, symbol: state.symbol.trim().toUpperCase() };
  if (state.accountId !== '') input.accountId = state.accountId;
  const newSymbol = state.newSymbol.trim().toUpperCase();
  if (fields.newSymbol !== null && newSymbol !== '') input.newSymbol = newSymbol;
  const numbers: Array<['ratio' | 'cashPerShare' | 'costFraction' | 'quantity', boolean]> = [
    ['ratio', fields.ratio !== null],
    ['cashPerShare', fields.cashPerShare !== null],
    ['costFraction', fields.costFraction !== null],
    ['quantity', fields.quantity !== null],
  ];
  for (const [name, shown] of numbers) {
    const value = numberOf(state[name]);
    if (shown && value !== undefined) input[name] = value;
  }
  if (state.note.trim() !== '') input.note = state.note.trim();
  return input;
}

/** A ratio as people say it: 2 → `2-for-1`, 0.1 → `1-for-10`, 1.7234 → `1.7234 per share`. */
export function ratioText(ratio: number): string {
  const whole = Math.round(ratio);
  if (whole >= 1 && Math.abs(ratio - whole) < 1e-9) return `${whole}-for-1`;
  const inverse = 1 / ratio;
  if (Math.abs(inverse - Math.round(inverse)) < 1e-6) return `1-for-${Math.round(inverse)}`;
  return `${Number(ratio.toPrecision(6))} per share`;
}

/** The terms of an action in a few words (`2-for-1`, `→ SOFI`, `0.5 NEW + $10.00 a share`). */
export function termsText(action: Pick<CorporateActionJsonT, 'type' | 'newSymbol' | 'ratio' | 'cashPerShare' | 'costFraction' | 'quantity'>): string {
  const parts: string[] = [];
  const cash = action.cashPerShare === null ? null : `$${action.cashPerShare.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 })}`;
  switch (action.type) {
    case 'split':
      if (action.ratio !== null) parts.push(ratioText(action.ratio));
      else if (action.quantity !== null) parts.push(`${action.quantity > 0 ? '+' : ''}${action.quantity} shares`);
      if (cash !== null) parts.push(`fraction at ${cash}`);
      break;
    case 'symbol_change':
    case 'merger':
      if (action.ratio !== null && Math.abs(action.ratio - 1) > 1e-9) parts.push(`${Number(action.ratio.toPrecision(6))} ${action.newSymbol ?? ''} a share`.trim());
      if (cash !== null) parts.push(`${cash} a share`);
      if (action.costFraction !== null) parts.push(`new shares keep ${Math.round(action.costFraction * 1000) / 10}% of basis`);
      break;
    case 'stock_dividend':
      if (action.ratio !== null) parts.push(`${Math.round(action.ratio * 10000) / 100}%`);
      else if (action.quantity !== null) parts.push(`${action.quantity} shares`);
      break;
    case 'spinoff':
      if (action.ratio !== null) parts.push(`${Number(action.ratio.toPrecision(6))} ${action.newSymbol ?? ''} a share`.trim());
      else if (action.quantity !== null) parts.push(`${action.quantity} ${action.newSymbol ?? ''}`.trim());
      if (action.costFraction !== null) parts.push(`${Math.round(action.costFraction * 1000) / 10}% of basis`);
      break;
    case 'free_shares':
      if (action.quantity !== null) parts.push(`${action.quantity} share${action.quantity === 1 ? '' : 's'}`);
      break;
  }
  return parts.join(', ');
}

export const ACTION_LABELS = CORPORATE_ACTION_LABELS;

export const OUTCOME_LABELS: Record<CorporateActionOutcome, { label: string; tone: 'pos' | 'neutral' | 'warn' | 'info'; title: string }> = {
  applied: { label: 'Applied', tone: 'pos', title: 'It changed the lots or options of its account' },
  nothing_held: { label: 'Nothing held', tone: 'neutral', title: 'No shares or options of the symbol were open in the account that day' },
  duplicate: { label: 'Duplicate', tone: 'info', title: 'The same action entered by hand applied instead (same account, day, kind and symbol)' },
  not_applied: { label: 'Not applied', tone: 'warn', title: 'Its account holds no transactions, or the new symbol was held on the other side' },
};
