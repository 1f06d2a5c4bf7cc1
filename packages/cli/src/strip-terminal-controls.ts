/* eslint-disable no-control-regex -- matching control characters is this file's purpose */

// Escape sequences, whole: CSI (ESC [ or the 8-bit 0x9B, then parameters, intermediates and a final byte), strings
// that run to a terminator (OSC ESC ], DCS ESC P, SOS ESC X, PM ESC ^, APC ESC _, or their 8-bit forms, ended by BEL
// or ST), and the short two- or three-byte escapes (ESC c, ESC 7, ESC ( B…).
const CSI = /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]/g;
const STRING = /(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)/g;
const SHORT = /\u001b[ -/]*[0-~]/g;
// What is left of a control that could act on a terminal: C0 but tab and newline, DEL, C1. Whatever of a sequence
// they started is then plain text ("[2J"), which a terminal prints and does not act on.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * A model's text made safe to print on a terminal: escape sequences and control characters are removed, so a
 * reply can neither move the cursor, clear the screen, change the window title nor write a hyperlink or a
 * clipboard request; CRLF becomes LF (and a lone CR, which would overwrite the line, is dropped). Tabs, newlines
 * and every printable character are kept as written. A sequence split across two pieces of a stream loses its
 * ESC in the first piece, so the rest prints as harmless text.
 */
export function stripTerminalControls(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(STRING, '').replace(CSI, '').replace(SHORT, '').replace(CONTROL, '');
}
