import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Organisation } from '@slipway/contracts';
import { ActionListItem } from '../../ui/ActionListItem';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { Loaded } from '../../ui/Loaded';
import { AllowedButton } from '../access/AllowedButton';
import { usePermission } from '../access/usePermission';
import { useProfileQuery } from '../profile/api';
import { useOrganisationsQuery, useRenameOrganisationMutation } from './api';
import { NameDialog } from './NameDialog';
import { useSwitchOrganisation } from './useSwitchOrganisation';

/** The organisations I belong to with my role; switch to another, rename the current one. */
export function OrganisationsSection() {
  const { t } = useTranslation();
  const query = useOrganisationsQuery();
  const switcher = useSwitchOrganisation();
  // A directory (LDAP) sign-in belongs to the organisation whose directory vouched for it.
  const ldapSession = useProfileQuery().data?.signInMethod === 'ldap';
  const [rename] = useRenameOrganisationMutation();
  const canRename = usePermission('organisation:edit').allowed;
  const [renaming, setRenaming] = useState<Organisation | null>(null);
  const [switching, setSwitching] = useState<string | null>(null);

  return (
    <Loaded query={query} lines={3} what={t('account.organisationsLoadError')}>
      {(data) => (
        <>
          <FormAlert message={switcher.error} />
          <FormAlert message={ldapSession ? t('account.ldapSession') : null} severity="info" />
          <List dense aria-label={t('account.organisationsTitle')}>
            {data.map((o) => (
              <ActionListItem
                key={o.id}
                data-testid="organisation-row"
                actions={
                  o.current ? (
                    <AllowedButton allowed={canRename} size="small" onClick={() => setRenaming(o)}>
                      {t('account.rename')}
                    </AllowedButton>
                  ) : (
                    <Button
                      size="small"
                      variant="outlined"
                      disabled={ldapSession}
                      loading={switching === o.id && switcher.isLoading}
                      aria-label={t('account.switchTo', { name: o.name })}
                      onClick={() => {
                        setSwitching(o.id);
                        void switcher.run(o.id);
                      }}
                    >
                      {t('account.switch')}
                    </Button>
                  )
                }
              >
                <ListItemText
                  primary={
                    <Stack
                      direction="row"
                      spacing={1}
                      alignItems="center"
                      component="span"
                      flexWrap="wrap"
                      useFlexGap
                    >
                      <span>{o.name}</span>
                      {o.current ? <Chip size="small" color="primary" label={t('account.current')} /> : null}
                    </Stack>
                  }
                  secondary={t(`team.orgRoles.${o.role}`)}
                />
              </ActionListItem>
            ))}
          </List>
          {renaming ? (
            <NameDialog
              title={t('account.renameOrganisation')}
              submitLabel={t('common.save')}
              initial={renaming.name}
              onSubmit={(name) => rename({ id: renaming.id, name })}
              onClose={() => setRenaming(null)}
            />
          ) : null}
        </>
      )}
    </Loaded>
  );
}
