/** Text of a server's (an error's description, a user's name) as lpreq shows it: control characters as spaces, cut short. */
export function plainText(value: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const plain = value.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').trim();
  return plain.length > max ? `${plain.slice(0, max)}...` : plain;
}
