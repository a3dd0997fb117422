import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import Close from '@mui/icons-material/Close';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Cluster, ClusterAttach } from '@slipway/contracts';
import { errorMessage } from '../../ui/api-error';
import { FormAlert } from '../../ui/FormAlert';
import { useReattachClusterMutation } from './api';
import { attachTiming } from './attach-timing';
import { ConfigureClusterForm } from './ConfigureClusterForm';
import { ConnectClusterStep } from './ConnectClusterStep';
import { NamespacePicker } from './NamespacePicker';
import { WaitForHeartbeat } from './WaitForHeartbeat';

const STEPS = ['configure', 'connect', 'heartbeat', 'namespaces'] as const;

/**
 * The attach modal (spec §2, tour step 7): 1 configure the cluster, 2 connect it by downloading a
 * YAML file, 3 wait for the agent's heartbeat, 4 choose namespaces for logs; then the cluster is
 * connected and the pipelines open after 3 seconds. Given a cluster id, it attaches that one again
 * (a new YAML with a new token) from step 2.
 */
export function AttachClusterDialog({ reattachId, onClose }: { reattachId?: string; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [step, setStep] = useState(reattachId ? 1 : 0);
  const [clusterId, setClusterId] = useState<string | null>(reattachId ?? null);
  const [attach, setAttach] = useState<ClusterAttach | null>(null);
  const [connected, setConnected] = useState<Cluster | null>(null);
  const [done, setDone] = useState(false);
  const [seconds, setSeconds] = useState(Math.ceil(attachTiming.redirectMs / 1000));
  const [reattach, { isLoading: reattaching }] = useReattachClusterMutation();
  const [error, setError] = useState<string | null>(null);

  const attachAgain = useCallback(
    async (id: string) => {
      setError(null);
      const answer = await reattach(id);
      if (answer.error) {
        setError(errorMessage(answer.error));
        return;
      }
      setAttach(answer.data);
      setStep(1);
    },
    [reattach],
  );

  // Attaching an existing cluster again starts with a fresh manifest, once.
  const started = useRef(false);
  useEffect(() => {
    if (!reattachId || started.current) return;
    started.current = true;
    void attachAgain(reattachId);
  }, [reattachId, attachAgain]);

  const onConnected = useCallback((c: Cluster) => {
    setConnected((was) => was ?? c);
    setStep((s) => (s === 2 ? 3 : s));
  }, []);

  // Connected and namespaces chosen: the pipelines open after 3 seconds.
  useEffect(() => {
    if (!done) return;
    const started = Date.now();
    const tick = setInterval(() => {
      const left = attachTiming.redirectMs - (Date.now() - started);
      setSeconds(Math.max(0, Math.ceil(left / 1000)));
    }, 250);
    const timer = setTimeout(() => void navigate('/pipelines'), attachTiming.redirectMs);
    return () => {
      clearInterval(tick);
      clearTimeout(timer);
    };
  }, [done, navigate]);

  return (
    <Dialog open onClose={onClose} aria-labelledby="attach-cluster-title" fullWidth maxWidth="md">
      <DialogTitle id="attach-cluster-title" sx={{ display: 'flex', alignItems: 'center' }}>
        <span style={{ flex: 1 }}>{t('clusters.steps.title')}</span>
        <IconButton aria-label={t('common.cancel')} onClick={onClose}>
          <Close />
        </IconButton>
      </DialogTitle>
      <DialogContent>
        <Stepper activeStep={done ? STEPS.length : step} alternativeLabel sx={{ mb: 3 }}>
          {STEPS.map((s) => (
            <Step key={s}>
              <StepLabel>{t(`clusters.steps.${s}`)}</StepLabel>
            </Step>
          ))}
        </Stepper>
        <FormAlert message={error} />
        {step === 0 ? (
          <ConfigureClusterForm
            onCreated={(created) => {
              setClusterId(created.cluster.id);
              setAttach(created.attach);
              setStep(1);
            }}
          />
        ) : null}
        {step === 1 && attach ? <ConnectClusterStep attach={attach} onApplied={() => setStep(2)} /> : null}
        {step === 2 && clusterId ? (
          <WaitForHeartbeat
            clusterId={clusterId}
            onConnected={onConnected}
            onAttachAgain={() => void attachAgain(clusterId)}
            attachingAgain={reattaching}
          />
        ) : null}
        {step === 3 && connected && !done ? (
          <div data-tour="cluster-attach-namespaces">
            <Alert severity="success" sx={{ mb: 2 }}>
              {t('clusters.wait.connected')}
            </Alert>
            <Typography sx={{ mb: 1 }}>{t('clusters.namespaces.body')}</Typography>
            <NamespacePicker
              cluster={connected}
              submitLabel={t('clusters.namespaces.done')}
              onSaved={() => setDone(true)}
            />
          </div>
        ) : null}
        {done ? (
          <Alert
            severity="success"
            data-testid="cluster-connected"
            data-tour="cluster-attach-done"
            role="status"
          >
            {t('clusters.wait.connected')} {t('clusters.wait.redirecting', { seconds })}
          </Alert>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
