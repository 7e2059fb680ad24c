/**
 * unstorage normalizes every key: `/` and `\` become `:`, runs of `:` collapse, `:` at either end is
 * dropped, everything from `?` on is cut, and the fs driver refuses `.` and `..` segments. A name the
 * user chose (a compat provider's name in a credential id) put into a key as it is would be stored
 * under another key than the one it is read back as, or under the same key as another name. These
 * characters are percent-encoded instead; other names (the usual ones) stay as they are, so the keys
 * written before this encoding are read the same.
 */
export function storageKeyPart(text: string): string {
  return text
    .replace(/[%/\\?#]/g, char => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)
    .replace(/^:|:$|:(?=:)|(?<=:):/g, '%3A')
    .replace(/(^|:)(\.{1,2})(?=:|$)/g, (_, before: string, dots: string) => before + dots.replace(/\./g, '%2E'))
}

/** The name a key part was made from by `storageKeyPart`. */
export function fromStorageKeyPart(part: string): string {
  return part.replace(/%([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
}
