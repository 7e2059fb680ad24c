import type { Candidate } from 'model-proxy'

export const previewSuffix = '-preview'

export interface QuotaSwitches { switchProject: boolean; switchPreviewModel: boolean }

/**
 * Rule 10 after a quota error on `candidate`: the same credential with the preview model first (when on
 * and not tried yet), then another credential (when on), else stop. Returns the explicit next candidate,
 * 'next-credential' (ask the picker), or 'stop'.
 */
export function nextAfterQuota(candidate: Candidate, switches: QuotaSwitches, originalModel: string): Candidate | 'next-credential' | 'stop' {
  const onPreview = candidate.upstreamModel.endsWith(previewSuffix) && candidate.upstreamModel !== originalModel
  if (switches.switchPreviewModel && !onPreview && !candidate.upstreamModel.endsWith(previewSuffix)) {
    return { credential: candidate.credential, upstreamModel: candidate.upstreamModel + previewSuffix }
  }
  return switches.switchProject ? 'next-credential' : 'stop'
}
