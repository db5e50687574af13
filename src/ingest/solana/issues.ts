/** Rejections and warnings are data: where (file, row, field) and what. */

/**
 * A problem found while decoding. `row` is the 1-based line of an NDJSON file, the 1-based element
 * of a JSON array of blocks, or 1 for a file holding one block; `field` is the JSON path inside that
 * block (`transactions[12].meta`), '' for the whole row.
 */
export interface DecodeIssue {
  readonly source: string;
  readonly row: number;
  readonly field: string;
  readonly message: string;
}
