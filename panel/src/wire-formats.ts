import { describeWireFormat, wireFormatNames } from '../../core/canonical/format-names.ts'

/** The four client wire formats the proxy speaks, as the panel names them (a family's `format` is one of these ids). */
export const wireFormats = wireFormatNames

export type WireFormatId = keyof typeof wireFormats

export const isWireFormat = (value: string): value is WireFormatId => value in wireFormats

/** `messages (/v1/messages)`; an id the panel does not know is shown as it is. */
export const describeFormat = describeWireFormat
