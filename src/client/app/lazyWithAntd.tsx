import { lazy, type ComponentType } from 'react';

/**
 * A lazily loaded part of the shop built with antd: its chunk and antd's theme (AntdScope) load
 * together when it is first shown, so the shell, the home and catalogue pages and the first paint
 * of a product page never download antd.
 */
export function lazyWithAntd<Props extends object = Record<string, never>>(load: () => Promise<{ default: ComponentType<Props> }>) {
  return lazy(async () => {
    const [{ default: Part }, { AntdScope }] = await Promise.all([load(), import(/* webpackChunkName: "antd-scope" */ './AntdScope')]);
    return {
      default: (props: Props) => (
        <AntdScope>
          <Part {...props} />
        </AntdScope>
      ),
    };
  });
}
