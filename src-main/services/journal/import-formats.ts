/**
 * User-defined import formats (docs/importers.md, "User-defined formats"): list, create, replace and delete the
 * column mappings saved from the Import page, bounded in number and size (src-shared/api/constants.ts,
 * IMPORT_FORMAT_LIMITS; the schema bounds each field), and checked against their own header. The importers
 * read them back as `custom:<id>` importers (savedImporters).
 */
import type { Database } from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { IMPORT_FORMAT_LIMITS } from '../../../src-shared/api/constants';
import type { ImportFormatDraftT, ImportFormatJson } from '../../../src-shared/api/schemas';
import { nowIso, type Clock } from '../../clock';
import { storedFormatHeader, storedFormatMapping } from '../../db/stored-json';
import type { WriteQueue, WriteTx } from '../../db/writes';
import { ImportFormatsRepository, type ImportFormatRow } from '../../db/import-formats';
import { canonicalNumber, normaliseName } from '../../importers/common/cells';
import { ResultCollector } from '../../importers/common/result';
import { notACsv } from '../../importers/common/sniff';
import { fileHead, isProse, readTable } from '../../importers/common/table';
import { customImporter, formatProblems, headerKey, parseWithFormat, type SavedFormat } from '../../importers/custom/index';
import { detectImporter } from '../../importers/registry';
import type { BrokerImporter, LineProblem, ParsedRow, ParseOptions, ParseResult } from '../../importers/types';
import { failure, MAX_FILE_PROBLEMS, ok, type Result } from '../result';

function toFormat(row: ImportFormatRow): ImportFormatJson {
  const header = storedFormatHeader.read(row.header_json);
  const mapping = storedFormatMapping.read(row.mapping_json);
  // Written by this service from a checked draft: a row that does not read back was changed outside the app.
  if (header === null || mapping === null) throw new Error(`The saved import format ${row.id} ("${row.name}") is unreadable: its ${header === null ? 'header' : 'mapping'} is not what Strikebook stores. Delete it (DELETE /v1/import-formats/${row.id}) and save it again.`);
  return {
    id: row.id,
    importer: `custom:${row.id}`,
    name: row.name,
    header,
    mapping,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The saved formats as importers, for parseImport's `extra` (detected before the built-in brokers). */
export function savedImporters(db: Database): BrokerImporter[] {
  return new ImportFormatsRepository(db).list().map((row) => customImporter(toFormat(row)));
}

/** A format checked (not saved), as the preview parses with it. */
export function checkDraft(draft: ImportFormatDraftT, id = 'preview'): Result<SavedFormat> {
  const problems = formatProblems(draft);
  return problems.length > 0 ? failure({ kind: 'invalid-request', what: 'format', problems }) : ok({ ...draft, id });
}

export class ImportFormatsService {
  private readonly rows: ImportFormatsRepository;

  constructor(
    db: Database,
    private readonly clock: Clock,
    private readonly writes: WriteQueue,
  ) {
    this.rows = new ImportFormatsRepository(db);
  }

  /** Saves a new format, in a write turn of its own. */
  create(draft: ImportFormatDraftT): Promise<Result<ImportFormatJson>> {
    return this.writes.run((turn) => this.insert(turn, draft));
  }

  /** Replaces a saved format, in a write turn of its own. */
  replace(id: string, draft: ImportFormatDraftT): Promise<Result<ImportFormatJson>> {
    return this.writes.run((turn) => this.update(turn, id, draft));
  }

  /** Deletes a saved format (its past imports stay), in a write turn of its own. */
  delete(id: string): Promise<Result<{ id: string; deleted: true }>> {
    return this.writes.run((turn) => (this.rows.delete(turn, id) === 1 ? ok({ id, deleted: true as const }) : failure({ kind: 'not-found', what: 'import format', id })));
  }

  list(): ImportFormatJson[] {
    return this.rows.list().map(toFormat);
  }

  /** A new format (in the caller's write turn). */
  private insert(turn: WriteTx, draft: ImportFormatDraftT): Result<ImportFormatJson> {
    const checked = this.check(draft, null);
    if (!checked.ok) return checked;
    if (this.rows.count() >= IMPORT_FORMAT_LIMITS.formats) {
      return failure({ kind: 'conflict', param: 'body', detail: `At most ${IMPORT_FORMAT_LIMITS.formats} formats can be saved: delete one you no longer use first.` });
    }
    const now = nowIso(this.clock);
    const id = randomBytes(6).toString('hex');
    this.rows.insert(turn, { id, name: draft.name.trim(), header_key: headerKey(draft.header), header_json: JSON.stringify(draft.header), mapping_json: JSON.stringify(draft.mapping), created_at: now, updated_at: now });
    const row = this.rows.byId(id);
    return row === undefined ? failure({ kind: 'not-found', what: 'import format', id }) : ok(toFormat(row));
  }

  /** Replaces a format's name, header and mapping; its id (and the `custom:<id>` of its past imports) stays. */
  private update(turn: WriteTx, id: string, draft: ImportFormatDraftT): Result<ImportFormatJson> {
    if (this.rows.byId(id) === undefined) return failure({ kind: 'not-found', what: 'import format', id });
    const checked = this.check(draft, id);
    if (!checked.ok) return checked;
    this.rows.replace(turn, { id, name: draft.name.trim(), header_key: headerKey(draft.header), header_json: JSON.stringify(draft.header), mapping_json: JSON.stringify(draft.mapping), updated_at: nowIso(this.clock) });
    const row = this.rows.byId(id);
    return row === undefined ? failure({ kind: 'not-found', what: 'import format', id }) : ok(toFormat(row));
  }

  /** The format's own rules, and one format per header (`self`: the format being replaced). */
  private check(draft: ImportFormatDraftT, self: string | null): Result<null> {
    const checked = checkDraft(draft);
    if (!checked.ok) return checked;
    if (draft.name.trim() === '') return failure({ kind: 'invalid-request', what: 'format', problems: [{ param: 'name', message: 'is blank' }] });
    const other = this.rows.byHeaderKey(headerKey(draft.header));
    if (other !== undefined && other.id !== self) {
      return failure({ kind: 'conflict', param: 'header', detail: `The format "${other.name}" (custom:${other.id}) already reads files with this header: edit that one instead.` });
    }
    return ok(null);
  }
}

/** What the preview answers, in domain values (the server's presenter makes the /v1 JSON). */
export interface FormatPreview {
  header: { line: number; cells: string[] } | null;
  sample: Array<{ line: number; cells: string[] }>;
  /** The importer that recognises the text as it is (a saved format first), if any. */
  detected: string | null;
  preview: {
    rows: number;
    transactionCount: number;
    transactions: ParsedRow[];
    skipped: LineProblem[];
    warnings: ParseResult['warnings'];
    errors: LineProblem[];
    /** The distinct cells of the type column (the words the format's table should map), first seen first. */
    words: string[];
    /**
     * Whether the format can be saved as it is: no errors, and no row whose action opens or closes an option while
     * the format finds no option on it (it would store the option as shares; the warning says which).
     */
    ready: boolean;
  } | null;
}

/** The distinct words of the type column, for the Import page's words table (at most the format's bound). */
function typeWords(format: SavedFormat, text: string): string[] {
  const key = headerKey(format.header);
  const table = readTable(new ResultCollector(`custom:${format.id}`, 'preview', 'oldest-first'), text, { isHeader: (names) => headerKey([...names]) === key, required: [], what: 'a table', headerHint: '' });
  if (table === null) return [];
  const index = table.columns.index(format.mapping.type.column);
  const words = new Map<string, string>();
  for (const record of table.rows) {
    const word = (index === undefined ? '' : (record.cells[index] ?? '')).trim();
    if (word !== '' && !words.has(normaliseName(word))) words.set(normaliseName(word), word);
    if (words.size >= IMPORT_FORMAT_LIMITS.words) break;
  }
  return [...words.values()];
}

/** Rows of the sample below the header. */
const SAMPLE_ROWS = 8;

/** A header candidate: at least two named cells, and none of them a number or a date (those are data). */
function looksLikeHeader(cells: readonly string[]): boolean {
  const filled = cells.map((cell) => cell.trim()).filter((cell) => cell !== '');
  return filled.length >= 2 && filled.every((cell) => canonicalNumber(cell) === null && !/^\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}/.test(cell));
}

/**
 * The Import page's mapping step: the file's header (the saved format's, else the first row of names) and its
 * first rows, what would detect it, and — with a format — the transactions the real parser makes of the text,
 * with its line-numbered problems. Stores nothing.
 */
export function previewFormat(text: string, draft: ImportFormatDraftT | undefined, extra: readonly BrokerImporter[], options: ParseOptions): Result<FormatPreview> {
  const foreign = notACsv(text);
  if (foreign !== null) {
    return failure({ kind: 'file-refused', unsupported: true, detail: `This is ${foreign.what}, not a CSV export: it has no columns to map. ${foreign.advice}`, problems: [{ line: 1, message: `this is ${foreign.what}, not a CSV export` }] });
  }
  let format: SavedFormat | null = null;
  if (draft !== undefined) {
    const checked = checkDraft(draft);
    if (!checked.ok) return checked;
    format = checked.value;
  }
  const records = fileHead(text).records;
  const key = format === null ? null : headerKey(format.header);
  const at = records.findIndex((record) => (key === null ? looksLikeHeader(record.cells) : headerKey(record.cells) === key));
  const header = records[at];
  const sample = header === undefined ? [] : records.slice(at + 1).filter((record) => !isProse(record)).slice(0, SAMPLE_ROWS);
  const detected = detectImporter(text, extra);
  let preview: FormatPreview['preview'] = null;
  if (format !== null) {
    const result = parseWithFormat(format, text, options);
    preview = {
      rows: result.rows,
      transactionCount: result.transactions.length,
      transactions: result.transactions.slice(0, IMPORT_FORMAT_LIMITS.previewTransactions),
      skipped: result.skipped.slice(0, MAX_FILE_PROBLEMS),
      warnings: result.warnings.slice(0, MAX_FILE_PROBLEMS),
      errors: result.errors.slice(0, MAX_FILE_PROBLEMS),
      words: typeWords(format, text),
      ready: result.errors.length === 0 && result.optionActionsWithoutOption === 0,
    };
  }
  return ok({
    header: header === undefined ? null : { line: header.line, cells: header.cells },
    sample: sample.map((record) => ({ line: record.line, cells: record.cells })),
    detected: detected?.id ?? null,
    preview,
  });
}
