/** Thrown by request decoders for bad client input; becomes a 400 `invalid_request_error` naming `param`. */
export class RequestValidationError extends Error {
  readonly status = 400
  constructor(message: string, readonly param?: string) {
    super(message)
    this.name = 'RequestValidationError'
  }
}
