/**
 * What a dropped file is, before any importer reads it: people drop screenshots, PDF statements, the Excel
 * download instead of the CSV one, zip archives. Those are named as such ("This is a PNG image, not a CSV
 * export") instead of failing on line 1 as an unknown header.
 *
 * The upload reaches us as text decoded as UTF-8, so magic numbers are matched in that decoded form (invalid
 * bytes became U+FFFD) as well as in their Latin-1 form (a caller that decoded bytes one to one).
 */
import { Buffer } from 'node:buffer';

export interface NotACsv {
  /** `a PNG image`, `an Excel workbook (.xlsx)`, ... */
  what: string;
  /** What to do instead, in the words of the Import page. */
  advice: string;
}

const CSV_ADVICE = "Download the transactions as CSV from your broker (its account history or activity page has an export or download button) and drop that file on the Import page.";

function decoded(bytes: number[]): string[] {
  const buffer = Buffer.from(bytes);
  return [buffer.toString('utf8'), buffer.toString('latin1')];
}

interface Magic {
  prefixes: string[];
  what: string;
  advice: string;
}

const MAGICS: Magic[] = [
  { prefixes: decoded([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), what: 'a PNG image', advice: CSV_ADVICE },
  { prefixes: ['GIF87a', 'GIF89a'], what: 'a GIF image', advice: CSV_ADVICE },
  { prefixes: ['%PDF-'], what: 'a PDF document', advice: `A statement PDF cannot be read. ${CSV_ADVICE}` },
  { prefixes: decoded([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), what: 'an Excel 97-2003 workbook (.xls)', advice: 'Choose the CSV download instead, or open it in a spreadsheet and save it as CSV (comma-separated).' },
  { prefixes: decoded([0x1f, 0x8b]), what: 'a gzip archive', advice: 'Unpack it and drop the CSV file inside.' },
  { prefixes: ['RIFF'], what: 'a media file', advice: CSV_ADVICE },
];

const JPEG = decoded([0xff, 0xd8, 0xff]);
const ZIP = decoded([0x50, 0x4b, 0x03, 0x04]);

/** Null for text that may be a CSV export; else what the file is and what to do. */
export function notACsv(text: string): NotACsv | null {
  const head = text.slice(0, 4096);
  for (const magic of MAGICS) {
    if (magic.prefixes.some((prefix) => head.startsWith(prefix))) return { what: magic.what, advice: magic.advice };
  }
  if (JPEG.some((prefix) => head.startsWith(prefix)) || (head.startsWith('\uFFFD\uFFFD') && /JFIF|Exif/.test(head.slice(0, 40)))) {
    return { what: 'a JPEG image', advice: CSV_ADVICE };
  }
  if (ZIP.some((prefix) => head.startsWith(prefix))) {
    if (head.includes('xl/')) return { what: 'an Excel workbook (.xlsx)', advice: 'Choose the CSV download instead, or open it in a spreadsheet and save it as CSV (comma-separated).' };
    if (head.includes('word/')) return { what: 'a Word document', advice: CSV_ADVICE };
    return { what: 'a zip archive', advice: 'Unzip it and drop the CSV file inside.' };
  }
  const start = head.replace(/^\uFEFF/, '').trimStart().slice(0, 200).toLowerCase();
  if (/^<(?:!doctype html|html|table|head|body)\b/.test(start)) {
    return { what: 'a web page (HTML), as some brokers\u2019 "Excel" downloads are', advice: 'Choose the CSV download instead, or open it in a spreadsheet and save it as CSV (comma-separated).' };
  }
  if (start.startsWith('<?xml') || start.startsWith('<flexqueryresponse')) {
    return { what: 'an XML file', advice: 'Set the report (an IBKR Flex Query, for one) to CSV format and drop that file.' };
  }
  // UTF-16 text (Excel's "Unicode Text"): every other character is NUL, the others are text.
  const sample = head.slice(0, 400);
  const body = sample.replace(/^[\uFFFD\u00FE\u00FF]{1,2}/, '');
  const pairs = body.slice(0, body.length - (body.length % 2));
  for (const offset of [0, 1]) {
    const chars = [...pairs].filter((_, index) => index % 2 !== offset);
    const nulls = [...pairs].filter((_, index) => index % 2 === offset);
    if (pairs.length >= 8 && nulls.every((c) => c === '\u0000') && chars.every((c) => /[\t\n\r\u0020-\u007e]/.test(c))) {
      return { what: 'UTF-16 text', advice: 'Save it as "CSV UTF-8 (comma-delimited)" and drop that file.' };
    }
  }
  const nuls = sample.split('\u0000').length - 1;
  const controls = sample.replace(/[\t\n\r\u0020-\u007e\u00a0-\ufffc]/g, '').length + (sample.split('\uFFFD').length - 1);
  if (nuls > 0 || (sample.length > 0 && controls / sample.length > 0.1)) {
    return { what: 'a binary file', advice: CSV_ADVICE };
  }
  return null;
}
