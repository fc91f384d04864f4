/**
 * Row ids of an overlay index: the shared (base) layer keeps its own positive ids; a row of the local layer is its
 * local id negated. Both layers hand out positive ids that never repeat, so the two ranges never meet and a row id
 * alone says which layer holds the row.
 */
export function isLocalRow(rowId: number): boolean {
  return rowId < 0;
}

/** The overlay's id of a local layer row. */
export function fromLocal(localId: number): number {
  return -localId;
}

/** The local layer's own id of an overlay row that {@link isLocalRow}. */
export function toLocal(rowId: number): number {
  return -rowId;
}

/** Overlay ids split by layer, each in the layer's own ids (order kept within a layer). */
export function splitRowIds(rowIds: readonly number[]): { base: number[]; local: number[] } {
  const base: number[] = [];
  const local: number[] = [];
  for (const id of rowIds) {
    if (isLocalRow(id)) local.push(toLocal(id));
    else base.push(id);
  }
  return { base, local };
}

/** A map keyed by local ids, re-keyed by overlay ids. */
export function localKeys<T>(map: ReadonlyMap<number, T>): Map<number, T> {
  return new Map([...map].map(([id, value]) => [fromLocal(id), value]));
}
