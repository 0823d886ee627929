/** GET /v1/dashboard/config: what the page knows before anyone signs in. */
export interface DashboardConfig {
  readonly balance_source: 'local_ledger' | 'solana_rpc';
  readonly development_wallet: boolean;
  readonly chain_id: string;
  readonly access_token_mint: string;
  readonly minimum_balance: number;
  readonly token_ttl_s: number;
  readonly fund_command: string | null;
}

export const fundCommand = (config: DashboardConfig, wallet: string): string | null => config.fund_command?.replace('<wallet>', wallet) ?? null;
