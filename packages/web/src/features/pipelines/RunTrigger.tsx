import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { RunTrigger } from '@slipway/contracts';

/** How a run was started, as people read it: "Webhook (github push)", "By ada@example.com", … */
export function useTriggerText() {
  const { t } = useTranslation();
  return {
    /** what started it */
    source: (trigger: RunTrigger) =>
      t(`pipelines.trigger.${trigger.by ? 'by' : 'plain'}.${trigger.kind}`, {
        by: trigger.by,
        defaultValue: trigger.by ? `${trigger.kind} · ${trigger.by}` : trigger.kind,
      }),
    /** the code it ran: branch @ short commit, and its author; empty when it names none */
    code: (trigger: RunTrigger) => {
      if (!trigger.commit && !trigger.branch) return '';
      const at = [trigger.branch, trigger.commit?.slice(0, 7)].filter(Boolean).join(' @ ');
      return trigger.author ? t('pipelines.trigger.codeBy', { code: at, author: trigger.author }) : at;
    },
  };
}

/** A run's trigger in a list cell: what started it, and under it the code it ran. */
export function RunTriggerCell({ trigger }: { trigger: RunTrigger }) {
  const text = useTriggerText();
  const code = text.code(trigger);
  return (
    <>
      {text.source(trigger)}
      {code ? (
        <Typography variant="caption" color="text.secondary" component="div" sx={{ fontFamily: 'monospace' }}>
          {code}
        </Typography>
      ) : null}
    </>
  );
}
