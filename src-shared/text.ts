/** Text as messages quote it: a cell of a hostile file can be megabytes long, a message stays a line. */

/** The longest message kept for a line of a file (the quoted cell is cut first where the caller can). */
export const MAX_MESSAGE_CHARS = 300;

/** `text` cut to `max` characters with an ellipsis, for quoting user text in a message. */
export function excerpt(text: string, max = 60): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
