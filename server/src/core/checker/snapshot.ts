/**
 * `# @snapshot` lines against the documentation: an option that cannot be read is
 * `invalid-format` (a snapshot with a misspelt option would compare what the user meant to
 * leave out), and a path that names a field the returned resource does not document is
 * `unknown-field`, as an assertion's PATH is (an `ignore=` with a typo ignores nothing).
 */
import { parseSnapshotOptions, SNAPSHOT_KEY } from '../snapshot';
import type { Catalog } from '../catalog/catalog';
import { walkPath } from '../catalog/resources';
import type { Block } from '../parser';
import { unknownField } from './assertions';
import type { RequestCheck } from './context';
import { diag, type Diagnostic } from './diagnostics';

export function checkSnapshotLines(
  catalog: Catalog,
  block: Block,
  check: RequestCheck | undefined,
  out: Diagnostic[],
): void {
  for (let i = 0; i < block.metadata.length; i++) {
    const m = block.metadata[i];
    if (m.key.text !== SNAPSHOT_KEY) continue;
    const options = parseSnapshotOptions(m.value.text, m.value.start);
    for (const p of options.problems) out.push(diag('invalid-format', p.message, p.start, p.end));
    if (!check) continue;
    const returns = check.endpoint.returns;
    for (const { path } of options.paths) {
      const end = walkPath(catalog, returns, path.segments);
      if (end.kind === 'unknown') out.push(unknownField(path.segments[end.at], end, check.label, returns ?? ''));
    }
  }
}
