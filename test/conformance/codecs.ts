import type { WireCodec } from '../../core/canonical/codec.ts'
import { chatCodec } from '../../providers/compat/codec/index.ts'
import { messagesCodec } from '../../providers/beta/codec/index.ts'
import { responsesCodec } from '../../providers/gamma/codec/index.ts'
import { generateCodec } from '../../providers/alpha/codec/index.ts'

/** Every wire codec, for suites that run the same checks over all of them. */
export const codecs: WireCodec[] = [chatCodec, messagesCodec, responsesCodec, generateCodec]
