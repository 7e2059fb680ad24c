import { useRef, useState } from 'preact/hooks'
import { get } from '../api.ts'
import { useLoad } from '../hooks.ts'
import { buildChatCall, type Turn } from '../chat-formats.ts'
import { runChat, type ChatOutcome } from '../chat-run.ts'
import { wireFormats, type WireFormatId } from '../wire-formats.ts'
import { CheckField, Section, SelectField, TextField } from '../components/field.tsx'
import { ErrorLine } from '../components/notice.tsx'
import type { ModelsAnswer } from './models.tsx'
import { asSession } from '../client-call.ts'

/** The client key the chat page sends with: this tab only, like the management key. */
const keyStorage = 'model-proxy.chat-key'
const readChatKey = () => { try { return sessionStorage.getItem(keyStorage) ?? '' } catch { return '' } }
const saveChatKey = (key: string) => { try { sessionStorage.setItem(keyStorage, key) } catch {} }

/**
 * Try any model through the proxy as a client of any format would, streamed or whole: as the
 * signed-in operator (no client key needed), or with a client key through the client endpoints.
 */
export function Chat() {
  const models = useLoad(() => get<ModelsAnswer>('/models'))
  const [key, setKey] = useState(readChatKey)
  const [format, setFormat] = useState<WireFormatId>('chat')
  const [model, setModel] = useState('')
  const [stream, setStream] = useState(true)
  const [system, setSystem] = useState('')
  const [input, setInput] = useState('')
  const [turns, setTurns] = useState<Turn[]>([])
  const [partial, setPartial] = useState<string>()
  const [outcome, setOutcome] = useState<ChatOutcome>()
  const [failure, setFailure] = useState<string>()
  const running = useRef<AbortController | undefined>(undefined)

  // A turn that got no answer leaves the history (the next request would carry it): its text goes back to the box.
  const withdraw = (asked: Turn[], text: string) => {
    setTurns(asked.slice(0, -1))
    setInput(current => current || text)
  }
  const send = async (e: Event) => {
    e.preventDefault()
    const text = input.trim()
    if (!text || !model || running.current) return
    if (key) saveChatKey(key)
    const asked: Turn[] = [...turns, { role: 'user', text }]
    setTurns(asked)
    setInput('')
    setOutcome(undefined)
    setFailure(undefined)
    setPartial('')
    const controller = running.current = new AbortController()
    try {
      const built = buildChatCall(format, key, { model, turns: asked, system: system.trim() || undefined, stream })
      const result = await runChat(format, key ? built : asSession(built), stream, setPartial, controller.signal)
      setOutcome(result)
      if (result.text && result.status < 400) setTurns([...asked, { role: 'assistant', text: result.text, model: result.served ?? model }])
      else withdraw(asked, text)
    } catch (error) {
      setFailure(controller.signal.aborted ? 'stopped' : (error as Error).message)
      withdraw(asked, text)
    } finally {
      running.current = undefined
      setPartial(undefined)
    }
  }

  const formats = Object.entries(wireFormats).map(([id, f]) => [id, f.name] as [string, string])
  return (
    <>
      <h1>Chat</h1>
      <Section title="Request">
        <form class="chat-form" aria-label="Chat" onSubmit={send}>
          <div class="grid">
            <TextField label="Client key (optional)" name="chat-key" type="password" value={key} onInput={setKey} hint="Empty: sent as you, the signed-in operator. A key (api-keys or a named key) tests that key's access and limits." />
            <div class="field">
              <label for="field-chat-model">Model</label>
              <input id="field-chat-model" name="chat-model" list="chat-models" value={model} required spellcheck={false} autoComplete="off" onInput={e => setModel((e.target as HTMLInputElement).value)} />
              <datalist id="chat-models">{models.data?.models.map(m => <option key={m.id} value={m.id} />)}</datalist>
            </div>
            <SelectField label="Client format" name="chat-format" value={format} options={formats} onChange={value => setFormat(value as WireFormatId)} hint={`Sent to ${wireFormats[format].path}`} />
            <TextField label="System prompt" name="chat-system" value={system} onInput={setSystem} />
          </div>
          <CheckField label="Stream the answer" name="chat-stream" checked={stream} onChange={setStream} />
          <ErrorLine error={models.error} />
          <ol class="chat-log" aria-live="polite">
            {turns.map((turn, i) => <li key={i} class={`turn ${turn.role}`} data-role={turn.role}><span class="who">{turn.role === 'user' ? 'You' : turn.model}</span><div class="said">{turn.text}</div></li>)}
            {partial !== undefined && <li class="turn assistant pending" data-role="pending"><span class="who">{model}</span><div class="said">{partial || '…'}</div></li>}
          </ol>
          <div class="field">
            <label for="field-chat-input">Message</label>
            <textarea id="field-chat-input" name="chat-input" rows={3} value={input} onInput={e => setInput((e.target as HTMLTextAreaElement).value)}
              onKeyDown={e => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void send(e) }} />
          </div>
          <div class="actions">
            <button type="submit" class="primary" disabled={partial !== undefined}>Send</button>
            <button type="button" disabled={partial === undefined} onClick={() => running.current?.abort()}>Stop</button>
            <button type="button" disabled={partial !== undefined || !turns.length} onClick={() => { setTurns([]); setOutcome(undefined) }}>New conversation</button>
          </div>
        </form>
        {failure && <p class="notice error" role="alert">{failure}</p>}
        {outcome && <OutcomeLine outcome={outcome} />}
      </Section>
    </>
  )
}

function OutcomeLine({ outcome }: { outcome: ChatOutcome }) {
  const parts = [
    `HTTP ${outcome.status}`,
    outcome.firstTextMs !== undefined && `first text ${outcome.firstTextMs} ms`,
    `total ${outcome.totalMs} ms`,
    outcome.usage.input !== undefined && `${outcome.usage.input} in / ${outcome.usage.output ?? '?'} out tokens`,
    outcome.served && `served by ${outcome.served}`,
    outcome.dropped && `dropped in translation: ${outcome.dropped}`,
  ].filter(Boolean)
  return (
    <div data-chat-outcome={outcome.status}>
      {outcome.error && <p class="notice error" role="alert">{outcome.error}</p>}
      <p class="muted chat-meta">{parts.join(' · ')}</p>
    </div>
  )
}
