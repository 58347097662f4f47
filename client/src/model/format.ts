/**
 * Text of response nodes for copying and documentation. Kept apart from the tree (and
 * free of imports) so that the view loads it at activation without the sender.
 */
import type { DocumentedType, ResponseIssue } from '../../../server/src/sender/index';
import { own } from '../../../server/src/core/index';
import { markdownCode } from './markdown';

/** The text copied by "Copy Value": strings as they are, everything else as JSON. */
export function copyText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value, null, 2);
}

/**
 * The documentation of a documented type as Markdown (tooltip and "Show Documentation"). The
 * label (a path of the response, its keys the server's) and the issues' messages (quoting
 * the server's values) are written as code (markdownCode); only the catalog's words are Markdown.
 */
export function documentationMarkdown(
  label: string,
  doc: DocumentedType | undefined,
  issues: readonly ResponseIssue[] = [],
  warningIcon = '$(warning)',
): string {
  const lines: string[] = [];
  if (doc) {
    lines.push(
      `**${markdownCode(label)}**: \`${doc.type}\`${doc.nullable ? ' (nullable)' : ''}${doc.optional ? ' (optional)' : ''}${doc.deprecated ? ' **deprecated**' : ''}`,
    );
    if (doc.resource) lines.push(`Field of \`${doc.resource}\`.`);
    if (doc.description) lines.push(doc.description);
    if (doc.note) lines.push(doc.note);
    if (doc.enum && doc.enum.length > 0) {
      lines.push('Documented values:');
      for (const v of doc.enum) {
        const meaning = own(doc.enumDescriptions, v);
        lines.push(`- \`${v}\`${meaning ? `: ${meaning}` : ''}`);
      }
    }
  } else {
    lines.push(`**${markdownCode(label)}**: not described by the documentation.`);
  }
  for (const i of issues) lines.push(`${warningIcon} ${i.code}: ${markdownCode(i.message)}`);
  return lines.join('\n\n');
}

/** "Show Documentation"'s Markdown document for a path of the response: its title and its documentation. */
export function documentationPage(
  label: string,
  doc: DocumentedType | undefined,
  issues: readonly ResponseIssue[] = [],
): string {
  // A Markdown preview shows no theme icon: the warning is a character.
  return `# ${markdownCode(label)}\n\n${documentationMarkdown(label, doc, issues, '⚠')}\n`;
}
