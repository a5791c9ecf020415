/**
 * A JSON chain file read in pieces (issue 29, finding 5): the document without its contracts, and each option (or
 * each Schwab expiration) parsed on its own, give what JSON.parse of the whole file gives; a piece that is not JSON
 * names its line in the file; more pieces than a chain may hold are refused while the file is scanned.
 */
import { describe, expect, it } from 'vitest';
import { ErrorList } from '../../../../src-main/chains/common';
import { pieces, readContractArray, readJsonChain, type JsonChainDocument } from '../../../../src-main/chains/json';

function read(text: string, max = 1000): JsonChainDocument {
  const result = readJsonChain(text, max);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.document;
}

describe('readJsonChain', () => {
  it('gives the document without the streamed containers, and their pieces as JSON.parse reads them', () => {
    const whole = {
      timestamp: '2024-01-05 21:15:04',
      data: {
        symbol: 'SPX',
        current_price: 4700,
        options: [
          { option: 'SPXW240119C04700000', iv: 0.1, note: 'a "quoted" ] }, bracket', nested: { list: [1, [2, 3]], empty: {} } },
          'a string element',
          12.5,
          null,
          [],
        ],
        after: [1, 2],
      },
      contracts: [{ expiration: '2024-01-19' }],
      'k\u00e9y \\ "with" escapes': { callExpDateMap: { x: 1 } },
    };
    const text = JSON.stringify(whole, null, 2);
    const document = read(text);
    expect(document.root).toEqual({ ...whole, data: { ...whole.data, options: [] }, contracts: [] });
    expect([...pieces(document, ['data', 'options'])].map((p) => p.value)).toEqual(whole.data.options);
    expect([...pieces(document, ['contracts'])].map((p) => p.value)).toEqual(whole.contracts);
  });

  it("reads Schwab's maps an expiration at a time, with its key", () => {
    const whole = { symbol: '$SPX', callExpDateMap: { '2024-01-19:14': { '4700.0': [{ bid: 1 }] }, '2024-02-16:42': { '4700.0': [{ bid: 2 }], '4800.0': [] } }, putExpDateMap: {} };
    const document = read(JSON.stringify(whole));
    expect(document.root).toEqual({ symbol: '$SPX', callExpDateMap: {}, putExpDateMap: {} });
    expect([...pieces(document, ['callExpDateMap'])].map((p) => [p.key, p.value])).toEqual(Object.entries(whole.callExpDateMap));
    expect([...pieces(document, ['putExpDateMap'])]).toEqual([]);
  });

  it('names the line of a piece that is not JSON, and of brackets that do not match', () => {
    const broken = '{"data": {"options": [\n{"option": "A", "iv": 0.1},\n{"option": "B", "iv": 0.1,}\n]}}';
    const document = read(broken);
    expect(() => [...pieces(document, ['data', 'options'])]).toThrow(/^not valid JSON: .* \(line 3\)$/);
    const mismatched = readJsonChain('{"data":\n{"options": [1, 2}}', 10);
    expect(mismatched.ok ? null : mismatched.errors).toEqual([{ line: 2, message: 'not valid JSON: "}" where an array is open (line 2)' }]);
  });

  it('refuses more pieces than a chain may hold while it scans', () => {
    const result = readJsonChain(`{"contracts": [${Array.from({ length: 11 }, () => '{}').join(',')}]}`, 10);
    expect(result.ok ? null : result.errors[0]?.message).toBe('more than 10 contracts: no chain of one underlying has that many (a whole SPX chain has about 21,000)');
    expect(readJsonChain(`{"contracts": [${Array.from({ length: 10 }, () => '{}').join(',')}]}`, 10).ok).toBe(true);
  });
});

describe('readContractArray', () => {
  const contract = (strike: number) => ({ root: 'XYZ', expiration: '2024-01-19', strike, right: 'C' as const, openInterest: 1, iv: 0.2, bid: 0, ask: 0, multiplier: 100 });

  it('keeps the elements that are contracts in order; names each refused element where it stands, with the parser’s words', () => {
    const errors = new ErrorList();
    const answer = readContractArray(read('{"data": {"options": [{"k": 10}, 7, {"k": -1}, {"k": 20}]}}'), ['data', 'options'], errors, (item, where) =>
      typeof item.k === 'number' && item.k > 0 ? contract(item.k) : { problem: `${where}: k ${String(item.k)} is not a strike` },
    );
    expect(answer.ok && answer.located.map((l) => [l.contract.strike, l.line])).toEqual([
      [10, null],
      [20, null],
    ]);
    expect(errors.errors.map((e) => e.message)).toEqual(['data.options[1]: not an object', 'data.options[2]: k -1 is not a strike']);
  });

  it('a piece that is not JSON is the answer’s error, with its line', () => {
    const answer = readContractArray(read('{"contracts": [\n{"k": 1},\n{"k": }\n]}'), ['contracts'], new ErrorList(), () => contract(1));
    expect(answer.ok).toBe(false);
    expect(!answer.ok && answer.errors[0]?.line).toBe(3);
  });
});
