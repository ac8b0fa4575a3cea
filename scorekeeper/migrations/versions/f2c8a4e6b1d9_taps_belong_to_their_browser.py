"""taps belong to their browser: each stored with the hash of the browser's id, a bound per browser and game

Revision ID: f2c8a4e6b1d9
Revises: e5b3d9f1a7c4
Create Date: 2026-11-26 10:00:00

A tap's key is now the hash of the browser's id and the tap id: taps stored before have keys of the tap id alone,
which no request finds again; they go with the day's pruning.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f2c8a4e6b1d9'
down_revision = 'e5b3d9f1a7c4'
branch_labels = None
depends_on = None


def upgrade():
    op.add_column('tap', sa.Column('browser', sa.String(length=64), nullable=True))
    op.create_index('ix_tap_game_browser_at', 'tap', ['game_id', 'browser', 'at'], unique=False)


def downgrade():
    op.drop_index('ix_tap_game_browser_at', table_name='tap')
    # In place on SQLite too: a copy of the table is not needed for a column nothing refers to.
    if op.get_bind().dialect.name == 'sqlite':
        op.execute('ALTER TABLE tap DROP COLUMN browser')
    else:
        op.drop_column('tap', 'browser')
