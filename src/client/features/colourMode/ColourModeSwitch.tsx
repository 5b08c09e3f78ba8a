import { DesktopOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';
import { ShellButton } from '@/components/ShellButton';
import { useAppDispatch, useAppSelector } from '@/app/withTypes';
import { colourModeChanged, selectColourMode, type ColourMode } from './colourModeSlice';

const options: { value: ColourMode; label: string; Icon: typeof SunOutlined }[] = [
  { value: 'light', label: 'Светлая тема', Icon: SunOutlined },
  { value: 'dark', label: 'Тёмная тема', Icon: MoonOutlined },
  { value: 'system', label: 'Как в системе', Icon: DesktopOutlined },
];

/** Three buttons acting as one radio group. */
export function ColourModeSwitch({ withLabels = false }: { withLabels?: boolean }) {
  const mode = useAppSelector(selectColourMode);
  const dispatch = useAppDispatch();
  return (
    <div role="radiogroup" aria-label="Цветовая тема" className="colour-switch">
      {options.map(({ value, label, Icon }) => (
        <ShellButton
          key={value}
          role="radio"
          aria-checked={mode === value}
          aria-label={label}
          title={label}
          small
          variant={mode === value ? 'primary' : 'text'}
          icon={<Icon aria-hidden />}
          onClick={() => dispatch(colourModeChanged(value))}
        >
          {withLabels ? label : null}
        </ShellButton>
      ))}
    </div>
  );
}
