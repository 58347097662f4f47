/**
 * A tool given input it cannot use: the answer is an MCP tool error (`isError`) that names
 * the argument and says what would do, never a crash or a protocol error.
 */
export class ToolInputError extends Error {
  constructor(
    readonly argument: string,
    message: string,
  ) {
    super(`${argument}: ${message}`);
  }
}
