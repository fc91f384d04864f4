/**
 * Row ids of an overlay index, interleaved: a row of the shared (base) layer is `2 * id`, a row of the local layer
 * `2 * id + 1`. Both layers hand out positive ids that never repeat, so the two never meet, a row id alone says which
 * layer holds it, and an overlay can itself be the base of another (a developer's edits over a branch over main):
 * each level doubles the ids, far below 2^53 for any real index.
 */
export function isLocalRow(rowId: number): boolean {
  return rowId % 2 === 1;
}

/** The overlay's id of a shared layer row. */
export function fromBase(baseId: number): number {
  return baseId * 2;
}

/** The overlay's id of a local layer row. */
export function fromLocal(localId: number): number {
  return localId * 2 + 1;
}

/** The local layer's own id of an overlay row that {@link isLocalRow}. */
export function toLocal(rowId: number): number {
  return (rowId - 1) / 2;
}

/** The shared layer's own id of an overlay row that is not {@link isLocalRow}. */
export function toBase(rowId: number): number {
  return rowId / 2;
}

/** Overlay ids split by layer, each in the layer's own ids (order kept within a layer). */
export function splitRowIds(rowIds: readonly number[]): { base: number[]; local: number[] } {
  const base: number[] = [];
  const local: number[] = [];
  for (const id of rowIds) {
    if (isLocalRow(id)) local.push(toLocal(id));
    else base.push(toBase(id));
  }
  return { base, local };
}

/** A layer's row id re-keyed for the overlay: `fromBase` or `fromLocal`. */
export type LayerIds = (layerId: number) => number;

/** A map keyed by a layer's ids, re-keyed by overlay ids. */
export function rekey<T>(map: ReadonlyMap<number, T>, to: LayerIds): Map<number, T> {
  return new Map([...map].map(([id, value]) => [to(id), value]));
}

/** Rows of a layer (anything with a rowId) with their overlay ids. */
export function withOverlayIds<T extends { readonly rowId: number }>(rows: readonly T[], to: LayerIds): T[] {
  return rows.map((r) => ({ ...r, rowId: to(r.rowId) }));
}
