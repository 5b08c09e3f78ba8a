// antd's CSS for the Radio group (theme/antdComponents.ts), with this chunk.
import '../../theme/antd-colourMode.generated.css';
import { DesktopOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';
import { Radio } from 'antd';
import { useAppDispatch, useAppSelector } from '@/hooks/reduxHooks';
import { colourModeChanged, selectColourMode, type ColourMode } from './colourModeSlice';

const options: { value: ColourMode; label: string; Icon: typeof SunOutlined }[] = [
  { value: 'light', label: 'Светлая тема', Icon: SunOutlined },
  { value: 'dark', label: 'Тёмная тема', Icon: MoonOutlined },
  { value: 'system', label: 'Как в системе', Icon: DesktopOutlined },
];

/**
 * The three modes as one radio group of native radios: Tab reaches the chosen one, the arrow keys
 * choose another. Loaded after the first paint (its callers render it lazily): antd's Radio has no
 * room in the first load's budget.
 */
export default function ColourModeSwitch({ withLabels = false }: { withLabels?: boolean }) {
  const mode = useAppSelector(selectColourMode);
  const dispatch = useAppDispatch();
  return (
    <Radio.Group
      aria-label="Цветовая тема"
      optionType="button"
      buttonStyle="solid"
      size="small"
      vertical={withLabels}
      className="colour-switch"
      value={mode}
      onChange={(event) => dispatch(colourModeChanged(event.target.value as ColourMode))}
    >
      {options.map(({ value, label, Icon }) => (
        <Radio.Button key={value} value={value} aria-label={label} title={label}>
          <Icon aria-hidden />
          {withLabels ? <span className="colour-switch-label">{label}</span> : null}
        </Radio.Button>
      ))}
    </Radio.Group>
  );
}
