/** One static file of the web UI. */
export interface WebAsset {
  path: string;
  contentType: string;
  body: string;
}

export declare const WEB_ASSETS_MODULE: 'council-web-assets';
export declare const webSourceDir: string;
export declare function buildWebAssets(): Promise<WebAsset[]>;
export declare function webAssetsModuleSource(): Promise<string>;
