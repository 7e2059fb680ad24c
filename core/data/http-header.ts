/**
 * Node's rules for a header (an RFC 9110 token for the name; no control character but tab in the
 * value), as patterns: a call to its validators with a try costs more per answer.
 */
export const headerNamePattern = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
export const headerValuePattern = /^[\t\x20-\x7e\x80-\xff]*$/

export const validHeader = (name: string, value: string): boolean => headerNamePattern.test(name) && headerValuePattern.test(value)
